package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.S3Clients;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Bucket;
import tools.jackson.databind.JsonNode;

/**
 * More than one access key: created, listed and revoked on the management port ({@code /actuator/accesskeys}),
 * each allowed in a bucket exactly what it was granted there.
 */
class AccessKeysIT extends AbstractS3IT {

    private static final Pattern KEY_ID = Pattern.compile("HK[A-Z0-9]{18}");

    private AdminApi admin;

    @BeforeAll
    void connectAdmin() {
        admin = new AdminApi(managementEndpoint(), http);
    }

    @Test
    void aKeyMayDoInABucketExactlyWhatItWasGranted() {
        String bucket = createBucket("keys-grant");
        s3.putObject(request -> request.bucket(bucket).key("doc.txt"), RequestBody.fromString("contents"));
        AdminApi.Key key = admin.createKey();
        try (S3Client client = clientFor(key)) {
            assertS3Error(() -> client.getObjectAsBytes(request -> request.bucket(bucket).key("doc.txt")),
                    403, "AccessDenied");
            assertS3Error(() -> client.listObjectsV2(request -> request.bucket(bucket)), 403, "AccessDenied");

            admin.permit(key.id(), bucket, true, false, false);
            assertThat(client.getObjectAsBytes(request -> request.bucket(bucket).key("doc.txt")).asUtf8String())
                    .isEqualTo("contents");
            assertThat(client.listObjectsV2(request -> request.bucket(bucket)).contents()).hasSize(1);
            assertS3Error(() -> client.putObject(request -> request.bucket(bucket).key("new.txt"),
                    RequestBody.fromString("new")), 403, "AccessDenied");
            assertS3Error(() -> client.deleteObject(request -> request.bucket(bucket).key("doc.txt")),
                    403, "AccessDenied");

            admin.permit(key.id(), bucket, true, true, false);
            client.putObject(request -> request.bucket(bucket).key("new.txt"), RequestBody.fromString("new"));
            assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("new.txt")).asUtf8String())
                    .isEqualTo("new");
            client.deleteObject(request -> request.bucket(bucket).key("new.txt"));
            // Owning the bucket's configuration is a permission of its own.
            assertS3Error(() -> client.deleteBucket(request -> request.bucket(bucket)), 403, "AccessDenied");

            admin.permit(key.id(), bucket, false, false, false);
            assertS3Error(() -> client.getObjectAsBytes(request -> request.bucket(bucket).key("doc.txt")),
                    403, "AccessDenied");
        }
    }

    @Test
    void aPermissionOnOneBucketOpensNoOther() {
        String granted = createBucket("keys-one");
        String other = createBucket("keys-other");
        s3.putObject(request -> request.bucket(other).key("secret.txt"), RequestBody.fromString("secret"));
        AdminApi.Key key = admin.createKey();
        admin.permit(key.id(), granted, true, true, true);
        try (S3Client client = clientFor(key)) {
            client.putObject(request -> request.bucket(granted).key("mine.txt"), RequestBody.fromString("mine"));
            assertS3Error(() -> client.getObjectAsBytes(request -> request.bucket(other).key("secret.txt")),
                    403, "AccessDenied");
            assertS3Error(() -> client.putObject(request -> request.bucket(other).key("mine.txt"),
                    RequestBody.fromString("mine")), 403, "AccessDenied");
        }
    }

    @Test
    void aKeyCanBeCreatedWithAPermissionRightAway() {
        String bucket = createBucket("keys-created");
        s3.putObject(request -> request.bucket(bucket).key("doc.txt"), RequestBody.fromString("contents"));
        AdminApi.Response created = admin.post("/actuator/accesskeys", Map.of("bucket", bucket, "read", "true"));
        assertThat(created.status()).as(created.body()).isEqualTo(200);
        JsonNode json = created.json();
        assertThat(json.get("buckets").get(bucket).get("read").asBoolean()).isTrue();
        assertThat(json.get("buckets").get(bucket).get("write").asBoolean()).isFalse();
        AdminApi.Key key = new AdminApi.Key(json.get("id").asString(), json.get("secret").asString());
        try (S3Client client = clientFor(key)) {
            assertThat(client.getObjectAsBytes(request -> request.bucket(bucket).key("doc.txt")).asUtf8String())
                    .isEqualTo("contents");
            assertS3Error(() -> client.putObject(request -> request.bucket(bucket).key("doc.txt"),
                    RequestBody.fromString("overwritten")), 403, "AccessDenied");
        }
    }

    @Test
    void aRevokedKeyIsUnknownAtOnce() {
        String bucket = createBucket("keys-revoke");
        AdminApi.Key key = admin.createKey();
        admin.permit(key.id(), bucket, true, true, false);
        try (S3Client client = clientFor(key)) {
            client.putObject(request -> request.bucket(bucket).key("doc.txt"), RequestBody.fromString("contents"));

            AdminApi.Response revoked = admin.delete("/actuator/accesskeys/" + key.id());
            assertThat(revoked.status()).as(revoked.body()).isEqualTo(204);

            assertS3Error(() -> client.getObjectAsBytes(request -> request.bucket(bucket).key("doc.txt")),
                    403, "InvalidAccessKeyId");
            assertS3Error(() -> client.listBuckets(), 403, "InvalidAccessKeyId");
        }
        assertThat(admin.get("/actuator/accesskeys/" + key.id()).status()).isEqualTo(404);
        assertThat(admin.delete("/actuator/accesskeys/" + key.id()).status()).isEqualTo(404);
    }

    @Test
    void aWrongSecretDoesNotMatchTheSignature() {
        String bucket = createBucket("keys-badsig");
        AdminApi.Key key = admin.createKey();
        admin.permit(key.id(), bucket, true, false, false);
        // A secret that starts with 'x' must not be "changed" into itself.
        String wrongSecret = (key.secret().charAt(0) == 'x' ? "y" : "x") + key.secret().substring(1);
        try (S3Client client = clientFor(new AdminApi.Key(key.id(), wrongSecret))) {
            assertS3Error(() -> client.listObjectsV2(request -> request.bucket(bucket)), 403, "SignatureDoesNotMatch");
        }
    }

    @Test
    void listingsShowKeysAndPermissionsButNeverSecrets() {
        String bucket = createBucket("keys-list");
        AdminApi.Key key = admin.createKey();
        assertThat(key.id()).matches(KEY_ID);
        assertThat(key.secret()).hasSize(40);
        admin.permit(key.id(), bucket, true, false, true);

        AdminApi.Response list = admin.get("/actuator/accesskeys");
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.body()).doesNotContain(key.secret()).doesNotContain(SECRET_KEY).doesNotContain("\"secret\"");
        List<String> ids = new ArrayList<>();
        JsonNode listed = null;
        JsonNode root = null;
        for (JsonNode entry : list.json().get("keys")) {
            String id = entry.get("id").asString();
            ids.add(id);
            if (id.equals(key.id())) {
                listed = entry;
            }
            if (id.equals(ACCESS_KEY)) {
                root = entry;
            }
        }
        assertThat(ids).contains(key.id(), ACCESS_KEY).isSorted();
        assertThat(listed).isNotNull();
        assertThat(listed.get("root").asBoolean()).isFalse();
        assertThat(listed.get("created").asString()).isNotEmpty();
        JsonNode permission = listed.get("buckets").get(bucket);
        assertThat(permission.get("read").asBoolean()).isTrue();
        assertThat(permission.get("write").asBoolean()).isFalse();
        assertThat(permission.get("owner").asBoolean()).isTrue();
        assertThat(root).isNotNull();
        assertThat(root.get("root").asBoolean()).isTrue();

        AdminApi.Response one = admin.get("/actuator/accesskeys/" + key.id());
        assertThat(one.status()).isEqualTo(200);
        assertThat(one.body()).doesNotContain(key.secret()).doesNotContain("\"secret\"");
        assertThat(one.json().get("buckets").get(bucket).get("owner").asBoolean()).isTrue();
    }

    @Test
    void theRootKeyCannotBeRevokedNorRestricted() {
        AdminApi.Response revoke = admin.delete("/actuator/accesskeys/" + ACCESS_KEY);
        assertThat(revoke.status()).as(revoke.body()).isEqualTo(400);
        AdminApi.Response permit = admin.post("/actuator/accesskeys/" + ACCESS_KEY,
                Map.of("bucket", "anything", "read", true));
        assertThat(permit.status()).as(permit.body()).isEqualTo(400);

        assertThat(s3.listBuckets().buckets()).isNotNull();
    }

    @Test
    void badAdministrationRequestsAreRefused() {
        assertThat(admin.post("/actuator/accesskeys/HKDOESNOTEXIST000000", Map.of("bucket", "photos", "read", true))
                .status()).isEqualTo(404);
        assertThat(admin.post("/actuator/accesskeys", Map.of("read", true)).status()).isEqualTo(400);
        AdminApi.Key key = admin.createKey();
        // The bucket is required when setting a permission, and a bucket or createBuckets when changing a key.
        assertThat(admin.post("/actuator/accesskeys/" + key.id(), Map.of("read", true)).status()).isEqualTo(400);
        assertThat(admin.post("/actuator/accesskeys/" + key.id(), Map.of()).status()).isEqualTo(400);
    }

    /**
     * A key allowed to create buckets that creates one becomes its owner: it may use the bucket fully, and the
     * grant shows in the listing. Other keys still may not.
     */
    @Test
    void aKeyThatCreatesABucketOwnsIt() {
        AdminApi.Key key = admin.createBucketCreator();
        AdminApi.Key stranger = admin.createKey();
        String bucket = newBucketName("keys-own");
        try (S3Client client = clientFor(key); S3Client strangerClient = clientFor(stranger)) {
            client.createBucket(request -> request.bucket(bucket));

            client.putObject(request -> request.bucket(bucket).key("doc.txt"), RequestBody.fromString("contents"));
            assertThat(client.getObjectAsBytes(request -> request.bucket(bucket).key("doc.txt")).asUtf8String())
                    .isEqualTo("contents");
            JsonNode permission = admin.get("/actuator/accesskeys/" + key.id()).json().get("buckets").get(bucket);
            assertThat(permission).as("the creator's permission on its bucket").isNotNull();
            assertThat(permission.get("read").asBoolean()).isTrue();
            assertThat(permission.get("write").asBoolean()).isTrue();
            assertThat(permission.get("owner").asBoolean()).isTrue();
            assertThat(client.listBuckets().buckets()).extracting(Bucket::name).contains(bucket);

            assertS3Error(() -> strangerClient.getObjectAsBytes(request -> request.bucket(bucket).key("doc.txt")),
                    403, "AccessDenied");

            client.deleteObject(request -> request.bucket(bucket).key("doc.txt"));
            client.deleteBucket(request -> request.bucket(bucket));
        }
    }

    /** Bucket creation is a permission the administrator grants: a new key may not create any bucket. */
    @Test
    void aKeyMayCreateBucketsOnlyIfGrantedThat() {
        AdminApi.Key key = admin.createKey();
        String bucket = newBucketName("keys-create");
        try (S3Client client = clientFor(key)) {
            var denied = assertS3Error(() -> client.createBucket(request -> request.bucket(bucket)), 403, "AccessDenied");
            assertThat(denied.awsErrorDetails().errorMessage()).contains("may not create buckets");
            assertS3Status(() -> s3.headBucket(request -> request.bucket(bucket)), 404);
            assertThat(admin.get("/actuator/accesskeys/" + key.id()).json().get("createBuckets").asBoolean()).isFalse();

            admin.allowBucketCreation(key.id(), true);
            assertThat(admin.get("/actuator/accesskeys/" + key.id()).json().get("createBuckets").asBoolean()).isTrue();
            client.createBucket(request -> request.bucket(bucket));
            assertThat(s3.headBucket(request -> request.bucket(bucket)).sdkHttpResponse().isSuccessful()).isTrue();

            admin.allowBucketCreation(key.id(), false);
            String another = newBucketName("keys-create");
            assertS3Error(() -> client.createBucket(request -> request.bucket(another)), 403, "AccessDenied");
            // What it created before stays its own.
            client.putObject(request -> request.bucket(bucket).key("doc.txt"), RequestBody.fromString("contents"));
        }
    }

    /**
     * A name another key's bucket has is BucketAlreadyExists for whoever does not own it; the owner, and the root
     * key, hear BucketAlreadyOwnedByYou.
     */
    @Test
    void anotherOwnersBucketNameIsAlreadyTaken() {
        AdminApi.Key owner = admin.createBucketCreator();
        AdminApi.Key other = admin.createBucketCreator();
        String bucket = newBucketName("keys-taken");
        try (S3Client ownerClient = clientFor(owner); S3Client otherClient = clientFor(other)) {
            ownerClient.createBucket(request -> request.bucket(bucket));

            assertS3Error(() -> otherClient.createBucket(request -> request.bucket(bucket)), 409, "BucketAlreadyExists");
            assertS3Error(() -> ownerClient.createBucket(request -> request.bucket(bucket)), 409,
                    "BucketAlreadyOwnedByYou");
            assertS3Error(() -> s3.createBucket(request -> request.bucket(bucket)), 409, "BucketAlreadyOwnedByYou");
            assertThat(admin.get("/actuator/accesskeys/" + other.id()).json().get("buckets").has(bucket)).isFalse();
            assertS3Error(() -> otherClient.putObject(request -> request.bucket(bucket).key("x"),
                    RequestBody.fromString("x")), 403, "AccessDenied");
        }
    }

    @Test
    void theRootKeyIsListedAsMayCreateBuckets() {
        assertThat(admin.get("/actuator/accesskeys/" + ACCESS_KEY).json().get("createBuckets").asBoolean()).isTrue();
        assertThat(admin.post("/actuator/accesskeys/" + ACCESS_KEY, Map.of("createBuckets", false)).status())
                .isEqualTo(400);
    }

    @Test
    void aRecreatedBucketDoesNotInheritPermissionsOnItsNamesake() {
        String bucket = createBucket("keys-recreate");
        AdminApi.Key key = admin.createKey();
        admin.permit(key.id(), bucket, true, true, false);
        try (S3Client client = clientFor(key)) {
            client.putObject(request -> request.bucket(bucket).key("doc.txt"), RequestBody.fromString("contents"));
            s3.deleteObject(request -> request.bucket(bucket).key("doc.txt"));
            s3.deleteBucket(request -> request.bucket(bucket));
            s3.createBucket(request -> request.bucket(bucket));
            assertS3Error(() -> client.putObject(request -> request.bucket(bucket).key("doc.txt"),
                    RequestBody.fromString("again")), 403, "AccessDenied");
        }
    }

    private S3Client clientFor(AdminApi.Key key) {
        return clientFor(key.id(), key.secret());
    }
}
