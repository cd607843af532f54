package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.AccessControlPolicy;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.Grantee;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.ObjectOwnership;
import software.amazon.awssdk.services.s3.model.Owner;
import software.amazon.awssdk.services.s3.model.Permission;
import software.amazon.awssdk.services.s3.model.Type;

/**
 * Object ACL grants to named grantees: {@code x-amz-grant-*} headers on PutObject, CopyObject,
 * CreateMultipartUpload and PutObjectAcl, AccessControlPolicy bodies that are no canned ACL,
 * GetObjectAcl answering exactly what was granted, and what each permission gives another access
 * key (named by its canonical id, its access key id) on the object: READ the object, READ_ACP and
 * WRITE_ACP its ACL. The errors S3 answers, and the ownership controls and Block Public Access
 * settings the grants are weighed against.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ObjectAclGrantsIT extends AbstractGrantsIT {

    @Test
    void grantHeadersOnAWriteGiveTheNamedKeyWhatTheyGrant() {
        String bucket = createBucket("object-grants");
        s3.putObject(request -> request.bucket(bucket).key("shared").grantFullControl(id(OWNER_ID))
            .grantRead(id(grantee.id())), RequestBody.fromString("shared with a friend"));
        s3.putObject(request -> request.bucket(bucket).key("other"), RequestBody.fromString("not shared"));

        assertThat(s3.getObjectAcl(request -> request.bucket(bucket).key("shared")).grants())
            .extracting(grant -> grant.grantee().type(), grant -> grant.grantee().id(), Grant::permission)
            .containsExactly(tuple(Type.CANONICAL_USER, OWNER_ID, Permission.FULL_CONTROL),
                tuple(Type.CANONICAL_USER, grantee.id(), Permission.READ));
        assertThat(granteeClient.getObjectAsBytes(request -> request.bucket(bucket).key("shared")).asUtf8String())
            .isEqualTo("shared with a friend");
        assertThat(granteeClient.headObject(request -> request.bucket(bucket).key("shared")).contentLength()).isEqualTo(20);
        // READ is the object's content only: not its ACL, not other objects, not writes.
        assertS3Error(() -> granteeClient.getObjectAcl(request -> request.bucket(bucket).key("shared")), 403,
            "AccessDenied");
        assertS3Error(() -> granteeClient.putObjectAcl(request -> request.bucket(bucket).key("shared")
            .acl(ObjectCannedACL.PUBLIC_READ)), 403, "AccessDenied");
        assertS3Error(() -> granteeClient.getObjectAsBytes(request -> request.bucket(bucket).key("other")), 403,
            "AccessDenied");
        assertS3Error(() -> granteeClient.deleteObject(request -> request.bucket(bucket).key("shared")), 403,
            "AccessDenied");
        assertS3Error(() -> granteeClient.putObjectTagging(request -> request.bucket(bucket).key("shared")
            .tagging(tagging -> tagging.tagSet(tag -> tag.key("k").value("v")))), 403, "AccessDenied");
        assertS3Error(() -> granteeClient.listObjectsV2(request -> request.bucket(bucket)), 403, "AccessDenied");
        assertThat(anonymousGet(bucket, "shared")).isEqualTo(403);

        // A group grant header: AllUsers READ makes the object public.
        s3.putObject(request -> request.bucket(bucket).key("public").grantRead("uri=\"" + ALL_USERS + "\""),
            RequestBody.fromString("for everyone"));
        assertThat(anonymousGet(bucket, "public")).isEqualTo(200);
        assertThat(s3.getObjectAcl(request -> request.bucket(bucket).key("public")).grants()).singleElement()
            .satisfies(grant -> assertThat(grant.grantee().uri()).isEqualTo(ALL_USERS));
    }

    @Test
    void aclPermissionsLetTheNamedKeyReadAndChangeTheAcl() {
        String bucket = createBucket("object-acp");
        s3.putObject(request -> request.bucket(bucket).key("doc"), RequestBody.fromString("document"));
        Owner owner = s3.getObjectAcl(request -> request.bucket(bucket).key("doc")).owner();
        assertThat(owner.id()).isEqualTo(OWNER_ID);

        s3.putObjectAcl(request -> request.bucket(bucket).key("doc").accessControlPolicy(AccessControlPolicy.builder()
            .owner(owner).grants(grant(canonical(OWNER_ID), Permission.FULL_CONTROL),
                grant(canonical(grantee.id()), Permission.READ_ACP), grant(canonical(grantee.id()), Permission.WRITE_ACP))
            .build()));
        // READ_ACP: the grantee reads the ACL, every grant with its owner's ID, but not the object.
        assertThat(granteeClient.getObjectAcl(request -> request.bucket(bucket).key("doc")).grants())
            .extracting(grant -> grant.grantee().id(), Grant::permission)
            .containsExactly(tuple(OWNER_ID, Permission.FULL_CONTROL), tuple(grantee.id(), Permission.READ_ACP),
                tuple(grantee.id(), Permission.WRITE_ACP));
        assertS3Error(() -> granteeClient.getObjectAsBytes(request -> request.bucket(bucket).key("doc")), 403,
            "AccessDenied");
        // WRITE_ACP: the grantee gives itself READ, by header; the list is replaced whole.
        granteeClient.putObjectAcl(request -> request.bucket(bucket).key("doc").grantRead(id(grantee.id()))
            .grantFullControl(id(OWNER_ID)));
        assertThat(granteeClient.getObjectAsBytes(request -> request.bucket(bucket).key("doc")).asUtf8String())
            .isEqualTo("document");
        assertS3Error(() -> granteeClient.getObjectAcl(request -> request.bucket(bucket).key("doc")), 403,
            "AccessDenied");

        // FULL_CONTROL is all three.
        s3.putObjectAcl(request -> request.bucket(bucket).key("doc").grantFullControl(id(grantee.id())));
        granteeClient.getObjectAsBytes(request -> request.bucket(bucket).key("doc"));
        granteeClient.putObjectAcl(request -> request.bucket(bucket).key("doc").acl(ObjectCannedACL.PRIVATE));
        assertS3Error(() -> granteeClient.getObjectAcl(request -> request.bucket(bucket).key("doc")), 403,
            "AccessDenied");
        assertThat(s3.getObjectAcl(request -> request.bucket(bucket).key("doc")).grants()).singleElement()
            .satisfies(grant -> assertThat(grant.grantee().id()).isEqualTo(OWNER_ID));
    }

    @Test
    void eachVersionHasItsOwnGrants() {
        String bucket = createBucket("version-grants");
        s3.putBucketVersioning(request -> request.bucket(bucket)
            .versioningConfiguration(versioning -> versioning.status(BucketVersioningStatus.ENABLED)));
        String first = s3.putObject(request -> request.bucket(bucket).key("v").grantRead(id(grantee.id())),
            RequestBody.fromString("first")).versionId();
        String second = s3.putObject(request -> request.bucket(bucket).key("v"), RequestBody.fromString("second"))
            .versionId();

        assertThat(granteeClient.getObjectAsBytes(request -> request.bucket(bucket).key("v").versionId(first))
            .asUtf8String()).isEqualTo("first");
        assertS3Error(() -> granteeClient.getObjectAsBytes(request -> request.bucket(bucket).key("v")), 403,
            "AccessDenied");
        s3.putObjectAcl(request -> request.bucket(bucket).key("v").versionId(second).grantRead(id(grantee.id())));
        assertThat(granteeClient.getObjectAsBytes(request -> request.bucket(bucket).key("v")).asUtf8String())
            .isEqualTo("second");
        assertThat(s3.getObjectAcl(request -> request.bucket(bucket).key("v").versionId(first)).grants())
            .extracting(grant -> grant.grantee().id()).containsExactly(grantee.id());
    }

    @Test
    void copiesAndMultipartUploadsTakeTheGrantsOfTheirRequest() {
        String bucket = createBucket("grant-writes");
        s3.putObject(request -> request.bucket(bucket).key("source").grantRead(id(grantee.id())),
            RequestBody.fromString("source"));
        // A copy takes the ACL of its request, never its source's.
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("source").destinationBucket(bucket)
            .destinationKey("copy/plain"));
        assertS3Error(() -> granteeClient.getObjectAsBytes(request -> request.bucket(bucket).key("copy/plain")), 403,
            "AccessDenied");
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("source").destinationBucket(bucket)
            .destinationKey("copy/granted").grantRead(id(grantee.id())));
        assertThat(granteeClient.getObjectAsBytes(request -> request.bucket(bucket).key("copy/granted")).asUtf8String())
            .isEqualTo("source");

        String key = "multipart/granted";
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)
            .grantRead(id(grantee.id())).grantReadACP(id(grantee.id()))).uploadId();
        String etag = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(1),
            RequestBody.fromString("assembled")).eTag();
        s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(CompletedPart.builder().partNumber(1).eTag(etag).build())));
        assertThat(granteeClient.getObjectAsBytes(request -> request.bucket(bucket).key(key)).asUtf8String())
            .isEqualTo("assembled");
        assertThat(granteeClient.getObjectAcl(request -> request.bucket(bucket).key(key)).grants())
            .extracting(Grant::permission).containsExactly(Permission.READ, Permission.READ_ACP);
        // The grant headers are the upload's settings, not headers of the object.
        assertThat(s3.headObject(request -> request.bucket(bucket).key(key)).sdkHttpResponse().headers())
            .doesNotContainKeys("x-amz-grant-read", "x-amz-grant-read-acp");
    }

    @Test
    void aGrantAndTagsChangedOneAfterTheOtherBothStay() {
        String bucket = createBucket("grant-and-tags");
        s3.putObject(request -> request.bucket(bucket).key("both"), RequestBody.fromString("x"));
        s3.putObjectAcl(request -> request.bucket(bucket).key("both").grantRead(id(grantee.id())));
        s3.putObjectTagging(request -> request.bucket(bucket).key("both")
            .tagging(tagging -> tagging.tagSet(tag -> tag.key("team").value("storage"))));
        assertThat(granteeClient.getObjectAsBytes(request -> request.bucket(bucket).key("both")).asUtf8String())
            .isEqualTo("x");
        assertThat(s3.getObjectTagging(request -> request.bucket(bucket).key("both")).tagSet()).hasSize(1);
        assertThat(s3.getObjectAcl(request -> request.bucket(bucket).key("both")).grants())
            .extracting(grant -> grant.grantee().id()).containsExactly(grantee.id());
    }

    @Test
    void badGrantsAreRefusedAsS3RefusesThemAndNothingIsWritten() {
        String bucket = createBucket("object-grant-errors");
        s3.putObject(request -> request.bucket(bucket).key("doc"), RequestBody.fromString("x"));

        assertThat(assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("new")
            .grantRead(id("nobody-has-this-id")), RequestBody.fromString("x")), 400, "InvalidArgument")
            .awsErrorDetails().errorMessage()).isEqualTo("Invalid id");
        assertS3Error(() -> s3.createMultipartUpload(request -> request.bucket(bucket).key("new")
            .grantFullControl(id("nobody-has-this-id"))), 400, "InvalidArgument");
        assertS3Error(() -> s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("doc")
            .destinationBucket(bucket).destinationKey("new").grantRead(id("nobody-has-this-id"))), 400,
            "InvalidArgument");
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("new").grantRead("id"),
            RequestBody.fromString("x")), 400, "InvalidArgument");
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("new")
            .grantRead("emailAddress=\"someone@example.com\""), RequestBody.fromString("x")), 400,
            "UnresolvableGrantByEmailAddress");
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("new").acl(ObjectCannedACL.PUBLIC_READ)
            .grantRead(id(grantee.id())), RequestBody.fromString("x")), 400, "InvalidRequest");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("new")), 404);

        assertS3Error(() -> s3.putObjectAcl(request -> request.bucket(bucket).key("doc")
            .grantRead(id("nobody-has-this-id"))), 400, "InvalidArgument");
        assertS3Error(() -> s3.putObjectAcl(request -> request.bucket(bucket).key("doc")
            .accessControlPolicy(AccessControlPolicy.builder().owner(OWNER)
                .grants(grant(canonical("nobody-has-this-id"), Permission.READ)).build())), 400, "InvalidArgument");
        assertS3Error(() -> s3.putObjectAcl(request -> request.bucket(bucket).key("doc")
            .accessControlPolicy(AccessControlPolicy.builder().owner(OWNER)
                .grants(Grant.builder().grantee(canonical(grantee.id())).build()).build())), 400, "MalformedACLError");
        assertS3Error(() -> s3.putObjectAcl(request -> request.bucket(bucket).key("missing")
            .grantRead(id(grantee.id()))), 404, "NoSuchKey");
        assertThat(s3.getObjectAcl(request -> request.bucket(bucket).key("doc")).grants()).singleElement()
            .satisfies(grant -> assertThat(grant.grantee().id()).isEqualTo(OWNER_ID));
    }

    @Test
    void ownershipControlsAndBlockPublicAccessWeighObjectGrants() {
        String bucket = createBucket("object-grant-settings");
        s3.putObject(request -> request.bucket(bucket).key("public").grantRead("uri=\"" + ALL_USERS + "\"")
            .grantReadACP(id(grantee.id())), RequestBody.fromString("x"));
        assertThat(anonymousGet(bucket, "public")).isEqualTo(200);

        s3.putPublicAccessBlock(request -> request.bucket(bucket).publicAccessBlockConfiguration(
            settings -> settings.ignorePublicAcls(true)));
        // The public grant is ignored; the grant to the key is not.
        assertThat(anonymousGet(bucket, "public")).isEqualTo(403);
        granteeClient.getObjectAcl(request -> request.bucket(bucket).key("public"));

        s3.putPublicAccessBlock(request -> request.bucket(bucket).publicAccessBlockConfiguration(
            settings -> settings.blockPublicAcls(true)));
        assertThat(anonymousGet(bucket, "public")).isEqualTo(200);
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("blocked")
            .grantRead("uri=\"" + ALL_USERS + "\""), RequestBody.fromString("x")), 403, "AccessDenied");
        assertS3Error(() -> s3.putObjectAcl(request -> request.bucket(bucket).key("public")
            .accessControlPolicy(AccessControlPolicy.builder().owner(OWNER)
                .grants(grant(Grantee.builder().type(Type.GROUP).uri(ALL_USERS).build(), Permission.READ_ACP))
                .build())), 403, "AccessDenied");
        s3.putObject(request -> request.bucket(bucket).key("named").grantRead(id(grantee.id())),
            RequestBody.fromString("x"));
        s3.deletePublicAccessBlock(request -> request.bucket(bucket));

        s3.putObjectAcl(request -> request.bucket(bucket).key("public").acl(ObjectCannedACL.PRIVATE));
        s3.putBucketOwnershipControls(request -> request.bucket(bucket).ownershipControls(
            controls -> controls.rules(rule -> rule.objectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED))));
        // ACLs disabled: stored grants give nothing, GetObjectAcl shows the owner alone, grants are refused.
        assertS3Error(() -> granteeClient.getObjectAsBytes(request -> request.bucket(bucket).key("named")), 403,
            "AccessDenied");
        assertThat(s3.getObjectAcl(request -> request.bucket(bucket).key("named")).grants()).singleElement()
            .satisfies(grant -> assertThat(grant.grantee().id()).isEqualTo(OWNER_ID));
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("refused").grantRead(id(grantee.id())),
            RequestBody.fromString("x")), 400, "AccessControlListNotSupported");
        assertS3Error(() -> s3.putObjectAcl(request -> request.bucket(bucket).key("named")
            .accessControlPolicy(AccessControlPolicy.builder().owner(OWNER)
                .grants(grant(canonical(OWNER_ID), Permission.FULL_CONTROL), grant(canonical(grantee.id()), Permission.READ))
                .build())), 400, "AccessControlListNotSupported");
        s3.putObjectAcl(request -> request.bucket(bucket).key("named").accessControlPolicy(AccessControlPolicy.builder()
            .owner(OWNER).grants(grant(canonical(OWNER_ID), Permission.FULL_CONTROL))
            .build()));
    }

    private int anonymousGet(String bucket, String key) {
        return raw.send(HttpRequest.newBuilder(URI.create(endpoint() + "/" + bucket + "/" + key)).GET().build()).status();
    }
}
