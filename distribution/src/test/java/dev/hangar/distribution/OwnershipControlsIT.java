package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RawS3;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.services.s3.model.AccessControlPolicy;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.GetBucketAclResponse;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.Grantee;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.ObjectOwnership;
import software.amazon.awssdk.services.s3.model.Permission;
import software.amazon.awssdk.services.s3.model.Type;

/**
 * Put/Get/DeleteBucketOwnershipControls, and BucketOwnerEnforced, which disables ACLs: they grant
 * nothing, read as the owner's full control, and cannot be set except as {@code bucket-owner-full-control}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class OwnershipControlsIT extends AbstractS3IT {

    @Test
    void putGetAndDeleteEachSetting() {
        String bucket = createBucket("own-crud");
        assertS3Error(() -> s3.getBucketOwnershipControls(request -> request.bucket(bucket)),
                404, "OwnershipControlsNotFoundError");

        for (ObjectOwnership ownership : List.of(ObjectOwnership.BUCKET_OWNER_PREFERRED, ObjectOwnership.OBJECT_WRITER,
                ObjectOwnership.BUCKET_OWNER_ENFORCED)) {
            ownership(bucket, ownership);
            assertThat(ownershipOf(bucket)).isEqualTo(ownership);
        }

        s3.deleteBucketOwnershipControls(request -> request.bucket(bucket));
        assertS3Error(() -> s3.getBucketOwnershipControls(request -> request.bucket(bucket)),
                404, "OwnershipControlsNotFoundError");
        s3.deleteBucketOwnershipControls(request -> request.bucket(bucket));

        String missing = newBucketName("own-missing");
        assertS3Error(() -> s3.getBucketOwnershipControls(request -> request.bucket(missing)), 404, "NoSuchBucket");
        assertS3Error(() -> s3.putBucketOwnershipControls(request -> request.bucket(missing).ownershipControls(
                controls -> controls.rules(rule -> rule.objectOwnership(ObjectOwnership.OBJECT_WRITER)))),
                404, "NoSuchBucket");
    }

    @Test
    void refusesAMalformedDocument() {
        String bucket = createBucket("own-malformed");
        assertS3Error(() -> s3.putBucketOwnershipControls(request -> request.bucket(bucket).ownershipControls(
                controls -> controls.rules(rule -> rule.objectOwnership("Everyone")))), 400, "MalformedXML");
        assertS3Error(() -> s3.putBucketOwnershipControls(request -> request.bucket(bucket).ownershipControls(
                controls -> controls.rules(List.of()))), 400, "MalformedXML");
        RawS3.Response empty = raw.send(raw.sign(raw.request(SdkHttpMethod.PUT, "/" + bucket)
                .putRawQueryParameter("ownershipControls", "").build(), "".getBytes(StandardCharsets.UTF_8),
                properties -> {
                }));
        assertThat(empty.status()).as(empty.toString()).isEqualTo(400);
        assertThat(empty.errorCode()).hasValue("MalformedXML");
        assertS3Error(() -> s3.getBucketOwnershipControls(request -> request.bucket(bucket)),
                404, "OwnershipControlsNotFoundError");
    }

    @Test
    void bucketOwnerEnforcedRefusesEveryAclButBucketOwnerFullControl() {
        String bucket = createBucket("own-enforced-writes");
        s3.putObject(request -> request.bucket(bucket).key("doc.txt"), RequestBody.fromString("doc"));
        ownership(bucket, ObjectOwnership.BUCKET_OWNER_ENFORCED);

        for (ObjectCannedACL acl : List.of(ObjectCannedACL.PUBLIC_READ, ObjectCannedACL.PRIVATE,
                ObjectCannedACL.BUCKET_OWNER_READ)) {
            assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("new.txt").acl(acl),
                    RequestBody.fromString("new")), 400, "AccessControlListNotSupported");
            assertS3Error(() -> s3.putObjectAcl(request -> request.bucket(bucket).key("doc.txt").acl(acl)),
                    400, "AccessControlListNotSupported");
        }
        assertS3Error(() -> s3.createMultipartUpload(request -> request.bucket(bucket).key("upload.bin")
                .acl(ObjectCannedACL.PUBLIC_READ)), 400, "AccessControlListNotSupported");
        assertS3Error(() -> s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("doc.txt")
                .destinationBucket(bucket).destinationKey("copy.txt").acl(ObjectCannedACL.AUTHENTICATED_READ)),
                400, "AccessControlListNotSupported");
        assertS3Error(() -> s3.putBucketAcl(request -> request.bucket(bucket).acl(BucketCannedACL.PUBLIC_READ)),
                400, "AccessControlListNotSupported");
        assertS3Error(() -> s3.putBucketAcl(request -> request.bucket(bucket).acl(BucketCannedACL.PRIVATE)),
                400, "AccessControlListNotSupported");

        // Grants header by header are ACLs too, refused before the grantees they name are looked up.
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("new.txt").grantRead("id=someone"),
                RequestBody.fromString("new")), 400, "AccessControlListNotSupported");
        assertS3Error(() -> s3.putObjectAcl(request -> request.bucket(bucket).key("doc.txt").grantRead("id=someone")),
                400, "AccessControlListNotSupported");
        assertS3Error(() -> s3.putBucketAcl(request -> request.bucket(bucket).grantRead("id=someone")),
                400, "AccessControlListNotSupported");

        // No ACL, bucket-owner-full-control, or a grant list of the owner's full control alone, are taken.
        s3.putObject(request -> request.bucket(bucket).key("plain.txt"), RequestBody.fromString("plain"));
        s3.putObject(request -> request.bucket(bucket).key("owned.txt").acl(ObjectCannedACL.BUCKET_OWNER_FULL_CONTROL),
                RequestBody.fromString("owned"));
        s3.putObjectAcl(request -> request.bucket(bucket).key("doc.txt").acl(ObjectCannedACL.BUCKET_OWNER_FULL_CONTROL));
        GetBucketAclResponse current = s3.getBucketAcl(request -> request.bucket(bucket));
        Grant ownerOnly = Grant.builder().permission(Permission.FULL_CONTROL)
                .grantee(Grantee.builder().type(Type.CANONICAL_USER).id(current.owner().id()).build()).build();
        s3.putBucketAcl(request -> request.bucket(bucket).accessControlPolicy(AccessControlPolicy.builder()
                .owner(current.owner()).grants(ownerOnly).build()));
        s3.putObjectAcl(request -> request.bucket(bucket).key("doc.txt").accessControlPolicy(AccessControlPolicy.builder()
                .owner(current.owner()).grants(ownerOnly).build()));
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("owned.txt")).asUtf8String())
                .isEqualTo("owned");
    }

    @Test
    void bucketOwnerEnforcedMakesAclsGrantNothingAndReadAsTheOwnersFullControl() {
        String bucket = createBucket("own-enforced-reads");
        s3.putObject(request -> request.bucket(bucket).key("open.txt").acl(ObjectCannedACL.PUBLIC_READ),
                RequestBody.fromString("open"));
        assertThat(anonymousGet(bucket, "open.txt").status()).isEqualTo(200);

        ownership(bucket, ObjectOwnership.BUCKET_OWNER_ENFORCED);
        RawS3.Response read = anonymousGet(bucket, "open.txt");
        assertThat(read.status()).isEqualTo(403);
        assertThat(read.errorCode()).hasValue("AccessDenied");
        assertThat(s3.getObjectAcl(request -> request.bucket(bucket).key("open.txt")).grants())
                .singleElement()
                .satisfies(grant -> assertThat(grant.permission()).isEqualTo(Permission.FULL_CONTROL))
                .satisfies(grant -> assertThat(grant.grantee().type()).isEqualTo(Type.CANONICAL_USER));
        assertThat(s3.getBucketAcl(request -> request.bucket(bucket)).grants())
                .singleElement()
                .satisfies(grant -> assertThat(grant.permission()).isEqualTo(Permission.FULL_CONTROL));

        // Turning ACLs back on brings back the ACL that was stored.
        s3.deleteBucketOwnershipControls(request -> request.bucket(bucket));
        assertThat(anonymousGet(bucket, "open.txt").status()).isEqualTo(200);
    }

    @Test
    void bucketOwnerEnforcedIsRefusedWhileTheBucketAclGrantsOthers() {
        String bucket = createBucket("own-public-bucket");
        s3.putBucketAcl(request -> request.bucket(bucket).acl(BucketCannedACL.PUBLIC_READ));
        assertS3Error(() -> ownership(bucket, ObjectOwnership.BUCKET_OWNER_ENFORCED),
                400, "InvalidBucketAclWithObjectOwnership");
        assertS3Error(() -> s3.getBucketOwnershipControls(request -> request.bucket(bucket)),
                404, "OwnershipControlsNotFoundError");

        ownership(bucket, ObjectOwnership.OBJECT_WRITER);
        s3.putBucketAcl(request -> request.bucket(bucket).acl(BucketCannedACL.PRIVATE));
        ownership(bucket, ObjectOwnership.BUCKET_OWNER_ENFORCED);
        assertThat(ownershipOf(bucket)).isEqualTo(ObjectOwnership.BUCKET_OWNER_ENFORCED);
    }

    @Test
    void theOtherSettingsKeepAclsInForce() {
        String bucket = createBucket("own-preferred");
        ownership(bucket, ObjectOwnership.BUCKET_OWNER_PREFERRED);
        s3.putObject(request -> request.bucket(bucket).key("open.txt").acl(ObjectCannedACL.PUBLIC_READ),
                RequestBody.fromString("open"));
        assertThat(anonymousGet(bucket, "open.txt").status()).isEqualTo(200);

        ownership(bucket, ObjectOwnership.OBJECT_WRITER);
        s3.putObjectAcl(request -> request.bucket(bucket).key("open.txt").acl(ObjectCannedACL.PRIVATE));
        assertThat(anonymousGet(bucket, "open.txt").status()).isEqualTo(403);
    }

    @Test
    void createBucketTakesTheSetting() {
        String enforced = newBucketName("own-create");
        s3.createBucket(request -> request.bucket(enforced).objectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED));
        assertThat(ownershipOf(enforced)).isEqualTo(ObjectOwnership.BUCKET_OWNER_ENFORCED);
        assertS3Error(() -> s3.putObject(request -> request.bucket(enforced).key("x").acl(ObjectCannedACL.PUBLIC_READ),
                RequestBody.fromString("x")), 400, "AccessControlListNotSupported");

        String refused = newBucketName("own-create-refused");
        assertS3Error(() -> s3.createBucket(request -> request.bucket(refused).acl(BucketCannedACL.PUBLIC_READ)
                .objectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED)), 400, "InvalidBucketAclWithObjectOwnership");
        assertS3Status(() -> s3.headBucket(request -> request.bucket(refused)), 404);

        String unknown = newBucketName("own-create-unknown");
        assertS3Error(() -> s3.createBucket(request -> request.bucket(unknown).objectOwnership("Everyone")),
                400, "InvalidArgument");
    }

    // Helpers

    private void ownership(String bucket, ObjectOwnership ownership) {
        s3.putBucketOwnershipControls(request -> request.bucket(bucket).ownershipControls(
                controls -> controls.rules(rule -> rule.objectOwnership(ownership))));
    }

    private ObjectOwnership ownershipOf(String bucket) {
        return s3.getBucketOwnershipControls(request -> request.bucket(bucket)).ownershipControls().rules()
                .getFirst().objectOwnership();
    }

    private RawS3.Response anonymousGet(String bucket, String key) {
        URI uri = URI.create("http://127.0.0.1:" + nextPort() + "/" + bucket + "/" + key);
        return raw.send(HttpRequest.newBuilder(uri).GET().build());
    }
}
