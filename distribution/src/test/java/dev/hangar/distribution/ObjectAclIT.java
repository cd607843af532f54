package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RawS3;
import dev.hangar.distribution.support.S3Clients;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AccessControlPolicy;
import software.amazon.awssdk.services.s3.model.Bucket;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectAclResponse;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.Grantee;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.Permission;
import software.amazon.awssdk.services.s3.model.Type;

/**
 * ACLs given at write time and read back: canned ACLs ({@code x-amz-acl}) on PutObject, CopyObject,
 * CreateMultipartUpload and CreateBucket, the truthful grants of GetObjectAcl, PutObjectAcl with a
 * canned ACL or a grant list, what anonymous requests may then do, and the refusal of unknown canned
 * ACLs and grantees. Also the buckets a non-root key creates and lists.
 */
class ObjectAclIT extends AbstractS3IT {

    private static final String ALL_USERS = "http://acs.amazonaws.com/groups/global/AllUsers";

    private String bucket;

    @BeforeAll
    void createAclBucket() {
        bucket = createBucket("object-acl");
    }

    @Test
    void objectsArePrivateUnlessTheirAclSaysOtherwise() {
        s3.putObject(request -> request.bucket(bucket).key("private"), RequestBody.fromString("secret"));
        GetObjectAclResponse acl = s3.getObjectAcl(request -> request.bucket(bucket).key("private"));
        assertThat(acl.owner().id()).isNotBlank();
        assertThat(acl.grants()).singleElement().satisfies(grant -> {
            assertThat(grant.permission()).isEqualTo(Permission.FULL_CONTROL);
            assertThat(grant.grantee().type()).isEqualTo(Type.CANONICAL_USER);
            assertThat(grant.grantee().id()).isEqualTo(acl.owner().id());
        });
        assertThat(anonymousGet(bucket, "private").status()).isEqualTo(403);

        s3.putObject(request -> request.bucket(bucket).key("public").acl(ObjectCannedACL.PUBLIC_READ),
            RequestBody.fromString("for everyone"));
        GetObjectAclResponse publicAcl = s3.getObjectAcl(request -> request.bucket(bucket).key("public"));
        assertThat(publicAcl.grants()).hasSize(2);
        assertThat(publicAcl.grants()).anySatisfy(grant -> {
            assertThat(grant.grantee().type()).isEqualTo(Type.GROUP);
            assertThat(grant.grantee().uri()).isEqualTo(ALL_USERS);
            assertThat(grant.permission()).isEqualTo(Permission.READ);
        });
        RawS3.Response anonymous = anonymousGet(bucket, "public");
        assertThat(anonymous.status()).isEqualTo(200);
        assertThat(anonymous.bodyText()).isEqualTo("for everyone");
    }

    @Test
    void putObjectAclWithACannedAclOrAGrantList() {
        String key = "changed";
        s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString("changing"));
        s3.putObjectAcl(request -> request.bucket(bucket).key(key).acl(ObjectCannedACL.PUBLIC_READ));
        assertThat(anonymousGet(bucket, key).status()).isEqualTo(200);

        // A grant list read back from GetObjectAcl goes back in unchanged.
        GetObjectAclResponse publicRead = s3.getObjectAcl(request -> request.bucket(bucket).key(key));
        s3.putObjectAcl(request -> request.bucket(bucket).key(key).acl(ObjectCannedACL.PRIVATE));
        assertThat(anonymousGet(bucket, key).status()).isEqualTo(403);
        s3.putObjectAcl(request -> request.bucket(bucket).key(key).accessControlPolicy(AccessControlPolicy.builder()
            .owner(publicRead.owner()).grants(publicRead.grants()).build()));
        assertThat(anonymousGet(bucket, key).status()).isEqualTo(200);

        Grant ownerOnly = Grant.builder().permission(Permission.FULL_CONTROL)
            .grantee(Grantee.builder().type(Type.CANONICAL_USER).id(publicRead.owner().id()).build()).build();
        s3.putObjectAcl(request -> request.bucket(bucket).key(key).accessControlPolicy(AccessControlPolicy.builder()
            .owner(publicRead.owner()).grants(ownerOnly).build()));
        assertThat(anonymousGet(bucket, key).status()).isEqualTo(403);
        assertThat(s3.getObjectAcl(request -> request.bucket(bucket).key(key)).grants()).hasSize(1);

        // A grant list that is no canned ACL is kept as given (ObjectAclGrantsIT weighs such grants).
        Grant writeAcp = Grant.builder().permission(Permission.WRITE_ACP)
            .grantee(Grantee.builder().type(Type.GROUP).uri(ALL_USERS).build()).build();
        s3.putObjectAcl(request -> request.bucket(bucket).key(key).accessControlPolicy(AccessControlPolicy.builder()
            .owner(publicRead.owner()).grants(List.of(ownerOnly, writeAcp)).build()));
        assertThat(s3.getObjectAcl(request -> request.bucket(bucket).key(key)).grants())
            .extracting(Grant::permission).containsExactly(Permission.FULL_CONTROL, Permission.WRITE_ACP);
        assertThat(anonymousGet(bucket, key).status()).isEqualTo(403);
        assertS3Error(() -> s3.putObjectAcl(request -> request.bucket(bucket).key(key).grantRead("id=someone")),
            400, "InvalidArgument");
        assertS3Error(() -> s3.putObjectAcl(request -> request.bucket(bucket).key("missing")
            .acl(ObjectCannedACL.PRIVATE)), 404, "NoSuchKey");
    }

    @Test
    void unknownCannedAclsAndGranteesAreRefused() {
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("granted").acl("world-writable"),
            RequestBody.fromString("x")), 400, "InvalidArgument");
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("granted")
            .acl(ObjectCannedACL.PUBLIC_READ).grantRead("uri=" + ALL_USERS), RequestBody.fromString("x")),
            400, "InvalidRequest");
        assertS3Error(() -> s3.createMultipartUpload(request -> request.bucket(bucket).key("granted")
            .grantFullControl("id=someone")), 400, "InvalidArgument");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("granted")), 404);
    }

    @Test
    void copiesAndMultipartUploadsTakeTheirOwnAcl() {
        s3.putObject(request -> request.bucket(bucket).key("copy/source").acl(ObjectCannedACL.PUBLIC_READ),
            RequestBody.fromString("source"));
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("copy/source").destinationBucket(bucket)
            .destinationKey("copy/private"));
        assertThat(anonymousGet(bucket, "copy/private").status()).isEqualTo(403);
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("copy/source").destinationBucket(bucket)
            .destinationKey("copy/public").acl(ObjectCannedACL.PUBLIC_READ));
        assertThat(anonymousGet(bucket, "copy/public").status()).isEqualTo(200);

        String key = "multipart/public";
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)
            .acl(ObjectCannedACL.PUBLIC_READ)).uploadId();
        String etag = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(1),
            RequestBody.fromString("assembled")).eTag();
        s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(CompletedPart.builder().partNumber(1).eTag(etag).build())));
        RawS3.Response anonymous = anonymousGet(bucket, key);
        assertThat(anonymous.status()).isEqualTo(200);
        assertThat(anonymous.bodyText()).isEqualTo("assembled");
        assertThat(s3.getObjectAcl(request -> request.bucket(bucket).key(key)).grants()).hasSize(2);
    }

    @Test
    void createBucketWithACannedAcl() {
        String publicBucket = newBucketName("public-bucket");
        s3.createBucket(request -> request.bucket(publicBucket).acl(BucketCannedACL.PUBLIC_READ));
        s3.putObject(request -> request.bucket(publicBucket).key("listed"), RequestBody.fromString("x"));
        assertThat(s3.getBucketAcl(request -> request.bucket(publicBucket)).grants()).anySatisfy(grant -> {
            assertThat(grant.grantee().uri()).isEqualTo(ALL_USERS);
            assertThat(grant.permission()).isEqualTo(Permission.READ);
        });
        RawS3.Response list = raw.send(HttpRequest.newBuilder(URI.create(endpoint() + "/" + publicBucket + "?list-type=2"))
            .GET().build());
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.bodyText()).contains("<Key>listed</Key>");
        // A public bucket does not make its objects public.
        assertThat(anonymousGet(publicBucket, "listed").status()).isEqualTo(403);

        assertThat(s3.getBucketAcl(request -> request.bucket(bucket)).grants()).singleElement()
            .satisfies(grant -> assertThat(grant.permission()).isEqualTo(Permission.FULL_CONTROL));
        assertThat(raw.send(HttpRequest.newBuilder(URI.create(endpoint() + "/" + bucket + "?list-type=2")).GET().build())
            .status()).isEqualTo(403);
    }

    @Test
    void aKeyListsOnlyTheBucketsItMayUse() {
        AdminApi admin = new AdminApi(managementEndpoint(), http);
        AdminApi.Key key = admin.createBucketCreator();
        String own = newBucketName("acl-own");
        String granted = createBucket("acl-granted");
        try (S3Client client = clientFor(key.id(), key.secret())) {
            assertThat(client.listBuckets().buckets()).isEmpty();
            client.createBucket(request -> request.bucket(own).acl(BucketCannedACL.PRIVATE));
            client.putObject(request -> request.bucket(own).key("mine"), RequestBody.fromString("mine"));
            assertThat(client.listBuckets().buckets()).extracting(Bucket::name).containsExactly(own);
            admin.permit(key.id(), granted, true, false, false);
            assertThat(client.listBuckets().buckets()).extracting(Bucket::name).containsExactlyInAnyOrder(own, granted);
            assertThat(s3.listBuckets().buckets()).extracting(Bucket::name).contains(own, granted, bucket);
            assertS3Error(() -> client.putObject(request -> request.bucket(bucket).key("not-mine"),
                RequestBody.fromString("x")), 403, "AccessDenied");
        }
    }

    private RawS3.Response anonymousGet(String bucketName, String key) {
        return raw.send(HttpRequest.newBuilder(URI.create(endpoint() + "/" + bucketName + "/" + key)).GET().build());
    }
}
