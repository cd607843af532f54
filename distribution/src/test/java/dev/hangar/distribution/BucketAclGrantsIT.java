package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.AccessControlPolicy;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.GetBucketAclResponse;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.Grantee;
import software.amazon.awssdk.services.s3.model.ObjectOwnership;
import software.amazon.awssdk.services.s3.model.Permission;
import software.amazon.awssdk.services.s3.model.Type;

/**
 * Bucket ACL grants to named grantees: PutBucketAcl with {@code x-amz-grant-*} headers or an
 * AccessControlPolicy that is no canned ACL, CreateBucket with grant headers, GetBucketAcl answering
 * exactly what was granted, and what a grant gives another access key (named by its canonical id, its
 * access key id) in access decisions. The errors S3 answers, and the ownership controls and Block
 * Public Access settings these grants are weighed against.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BucketAclGrantsIT extends AbstractGrantsIT {

    @Test
    void grantHeadersGiveTheNamedKeyWhatTheyGrant() {
        String bucket = createBucket("grant-headers");
        s3.putObject(request -> request.bucket(bucket).key("existing"), RequestBody.fromString("x"));
        assertS3Error(() -> granteeClient.listObjectsV2(request -> request.bucket(bucket)), 403, "AccessDenied");

        s3.putBucketAcl(request -> request.bucket(bucket).grantFullControl(id(OWNER_ID))
            .grantRead(id(grantee.id())));
        GetBucketAclResponse acl = s3.getBucketAcl(request -> request.bucket(bucket));
        assertThat(acl.owner().id()).isEqualTo(OWNER_ID);
        assertThat(acl.grants()).extracting(grant -> grant.grantee().type(), grant -> grant.grantee().id(),
                Grant::permission)
            .containsExactly(
                org.assertj.core.groups.Tuple.tuple(Type.CANONICAL_USER, OWNER_ID, Permission.FULL_CONTROL),
                org.assertj.core.groups.Tuple.tuple(Type.CANONICAL_USER, grantee.id(), Permission.READ));
        assertThat(granteeClient.listObjectsV2(request -> request.bucket(bucket)).contents()).hasSize(1);
        assertS3Error(() -> granteeClient.putObject(request -> request.bucket(bucket).key("new"),
            RequestBody.fromString("x")), 403, "AccessDenied");
        assertS3Error(() -> granteeClient.getBucketAcl(request -> request.bucket(bucket)), 403, "AccessDenied");
        // READ on the bucket does not make its objects readable.
        assertS3Error(() -> granteeClient.getObjectAsBytes(request -> request.bucket(bucket).key("existing")), 403,
            "AccessDenied");

        s3.putBucketAcl(request -> request.bucket(bucket).grantWrite(id(grantee.id()))
            .grantReadACP(id(grantee.id())));
        granteeClient.putObject(request -> request.bucket(bucket).key("new"), RequestBody.fromString("x"));
        granteeClient.deleteObject(request -> request.bucket(bucket).key("existing"));
        // Exactly what was granted: the owner, not named this time, is not listed.
        assertThat(granteeClient.getBucketAcl(request -> request.bucket(bucket)).grants())
            .extracting(Grant::permission).containsExactly(Permission.READ_ACP, Permission.WRITE);
        assertS3Error(() -> granteeClient.listObjectsV2(request -> request.bucket(bucket)), 403, "AccessDenied");
        assertS3Error(() -> granteeClient.putBucketAcl(request -> request.bucket(bucket).acl(BucketCannedACL.PRIVATE)),
            403, "AccessDenied");

        s3.putBucketAcl(request -> request.bucket(bucket).grantWriteACP(id(grantee.id())));
        granteeClient.putBucketAcl(request -> request.bucket(bucket).grantFullControl(id(grantee.id())));
        granteeClient.listObjectsV2(request -> request.bucket(bucket));
        granteeClient.putObject(request -> request.bucket(bucket).key("full"), RequestBody.fromString("x"));
        granteeClient.getBucketAcl(request -> request.bucket(bucket));
        granteeClient.putBucketAcl(request -> request.bucket(bucket).acl(BucketCannedACL.PRIVATE));
        assertS3Error(() -> granteeClient.listObjectsV2(request -> request.bucket(bucket)), 403, "AccessDenied");
        assertThat(s3.getBucketAcl(request -> request.bucket(bucket)).grants()).singleElement()
            .satisfies(grant -> assertThat(grant.grantee().id()).isEqualTo(OWNER_ID));
    }

    @Test
    void aGrantListBodyIsStoredAndReadBackAsGiven() {
        String bucket = createBucket("grant-body");
        AccessControlPolicy policy = AccessControlPolicy.builder()
            .owner(OWNER)
            .grants(grant(canonical(OWNER_ID), Permission.FULL_CONTROL), grant(canonical(grantee.id()), Permission.READ),
                grant(Grantee.builder().type(Type.GROUP).uri(ALL_USERS).build(), Permission.READ),
                grant(canonical(grantee.id()), Permission.WRITE_ACP))
            .build();
        s3.putBucketAcl(request -> request.bucket(bucket).accessControlPolicy(policy));

        GetBucketAclResponse acl = s3.getBucketAcl(request -> request.bucket(bucket));
        assertThat(acl.grants()).extracting(Grant::permission)
            .containsExactly(Permission.FULL_CONTROL, Permission.READ, Permission.READ, Permission.WRITE_ACP);
        assertThat(acl.grants().get(0).grantee().id()).isEqualTo(OWNER_ID);
        assertThat(acl.grants().get(2).grantee().uri()).isEqualTo(ALL_USERS);
        assertThat(granteeClient.listObjectsV2(request -> request.bucket(bucket)).contents()).isEmpty();
        assertThat(anonymousList(bucket)).isEqualTo(200);

        // What GetBucketAcl answers goes back in unchanged.
        s3.putBucketAcl(request -> request.bucket(bucket).acl(BucketCannedACL.PRIVATE));
        assertThat(anonymousList(bucket)).isEqualTo(403);
        s3.putBucketAcl(request -> request.bucket(bucket).accessControlPolicy(AccessControlPolicy.builder()
            .owner(acl.owner()).grants(acl.grants()).build()));
        assertThat(s3.getBucketAcl(request -> request.bucket(bucket)).grants()).isEqualTo(acl.grants());
        assertThat(anonymousList(bucket)).isEqualTo(200);
    }

    @Test
    void createBucketTakesGrantHeaders() {
        String bucket = newBucketName("grant-create");
        s3.createBucket(request -> request.bucket(bucket).grantRead(id(grantee.id()))
            .grantFullControl(id(OWNER_ID)));
        assertThat(s3.getBucketAcl(request -> request.bucket(bucket)).grants())
            .extracting(grant -> grant.grantee().id(), Grant::permission)
            .containsExactly(org.assertj.core.groups.Tuple.tuple(OWNER_ID, Permission.FULL_CONTROL),
                org.assertj.core.groups.Tuple.tuple(grantee.id(), Permission.READ));
        assertThat(granteeClient.listObjectsV2(request -> request.bucket(bucket)).contents()).isEmpty();

        assertS3Error(() -> s3.createBucket(request -> request.bucket(newBucketName("grant-both"))
            .acl(BucketCannedACL.PRIVATE).grantRead(id(grantee.id()))), 400, "InvalidRequest");
        assertS3Error(() -> s3.createBucket(request -> request.bucket(newBucketName("grant-unknown"))
            .grantRead("id=\"nobody-has-this-id\"")), 400, "InvalidArgument");
    }

    @Test
    void badGrantsAreRefusedAsS3RefusesThem() {
        String bucket = createBucket("grant-errors");
        assertS3Error(() -> s3.putBucketAcl(request -> request.bucket(bucket).acl(BucketCannedACL.PUBLIC_READ)
            .grantRead(id(grantee.id()))), 400, "InvalidRequest");
        assertS3Error(() -> s3.putBucketAcl(request -> request.bucket(bucket).grantRead("id")), 400,
            "InvalidArgument");
        assertS3Error(() -> s3.putBucketAcl(request -> request.bucket(bucket).grantRead("nickname=\"x\"")), 400,
            "InvalidArgument");
        assertThat(assertS3Error(() -> s3.putBucketAcl(request -> request.bucket(bucket)
            .grantRead("id=\"nobody-has-this-id\"")), 400, "InvalidArgument").awsErrorDetails().errorMessage())
            .isEqualTo("Invalid id");
        assertS3Error(() -> s3.putBucketAcl(request -> request.bucket(bucket).accessControlPolicy(AccessControlPolicy
            .builder().owner(OWNER)
            .grants(grant(canonical("nobody-has-this-id"), Permission.READ)).build())), 400, "InvalidArgument");
        assertS3Error(() -> s3.putBucketAcl(request -> request.bucket(bucket)
            .grantRead("emailAddress=\"someone@example.com\"")), 400, "UnresolvableGrantByEmailAddress");
        assertS3Error(() -> s3.putBucketAcl(request -> request.bucket(bucket).accessControlPolicy(AccessControlPolicy
            .builder().owner(OWNER)
            .grants(Grant.builder().grantee(canonical(grantee.id())).build()).build())), 400, "MalformedACLError");
        assertThat(s3.getBucketAcl(request -> request.bucket(bucket)).grants()).singleElement()
            .satisfies(grant -> assertThat(grant.grantee().id()).isEqualTo(OWNER_ID));
    }

    @Test
    void ownershipControlsAndBlockPublicAccessWeighGrantLists() {
        String bucket = createBucket("grant-settings");
        s3.putBucketAcl(request -> request.bucket(bucket).grantFullControl(id(OWNER_ID))
            .grantRead(id(grantee.id())));
        assertS3Error(() -> s3.putBucketOwnershipControls(request -> request.bucket(bucket).ownershipControls(
            controls -> controls.rules(rule -> rule.objectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED)))),
            400, "InvalidBucketAclWithObjectOwnership");

        s3.putBucketAcl(request -> request.bucket(bucket).grantRead(id(grantee.id()))
            .grantWrite("uri=\"" + ALL_USERS + "\""));
        s3.putPublicAccessBlock(request -> request.bucket(bucket).publicAccessBlockConfiguration(
            settings -> settings.ignorePublicAcls(true)));
        // The public grant is ignored; the grant to the key is not.
        assertThat(anonymousPut(bucket)).isEqualTo(403);
        granteeClient.listObjectsV2(request -> request.bucket(bucket));

        s3.putPublicAccessBlock(request -> request.bucket(bucket).publicAccessBlockConfiguration(
            settings -> settings.blockPublicAcls(true)));
        assertThat(anonymousPut(bucket)).isEqualTo(200);
        assertS3Error(() -> s3.putBucketAcl(request -> request.bucket(bucket).grantRead("uri=\"" + ALL_USERS + "\"")),
            403, "AccessDenied");
        s3.putBucketAcl(request -> request.bucket(bucket).grantFullControl(id(OWNER_ID)));

        s3.putBucketOwnershipControls(request -> request.bucket(bucket).ownershipControls(
            controls -> controls.rules(rule -> rule.objectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED))));
        s3.putBucketAcl(request -> request.bucket(bucket).accessControlPolicy(AccessControlPolicy.builder()
            .owner(OWNER).grants(grant(canonical(OWNER_ID), Permission.FULL_CONTROL))
            .build()));
        assertS3Error(() -> s3.putBucketAcl(request -> request.bucket(bucket).accessControlPolicy(AccessControlPolicy
            .builder().owner(OWNER)
            .grants(grant(canonical(OWNER_ID), Permission.FULL_CONTROL), grant(canonical(grantee.id()), Permission.READ))
            .build())), 400, "AccessControlListNotSupported");
    }

    private int anonymousList(String bucket) {
        return raw.send(HttpRequest.newBuilder(URI.create(endpoint() + "/" + bucket + "?list-type=2")).GET().build())
            .status();
    }

    private int anonymousPut(String bucket) {
        return raw.send(HttpRequest.newBuilder(URI.create(endpoint() + "/" + bucket + "/anonymous"))
            .PUT(HttpRequest.BodyPublishers.ofString("x")).build()).status();
    }
}
