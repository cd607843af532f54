package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRetentionResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.ObjectLockEnabled;
import software.amazon.awssdk.services.s3.model.ObjectLockLegalHoldStatus;
import software.amazon.awssdk.services.s3.model.ObjectLockMode;
import software.amazon.awssdk.services.s3.model.ObjectLockRetentionMode;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * S3 Object Lock: buckets created with it (and so with versioning), retention in GOVERNANCE and
 * COMPLIANCE mode set on PUT, on multipart uploads, by the bucket's default or later, the governance
 * bypass, legal holds, and the deletions they refuse.
 */
class ObjectLockIT extends AbstractS3IT {

    private String bucket;

    @BeforeAll
    void createLockedBucket() {
        bucket = newBucketName("object-lock");
        s3.createBucket(request -> request.bucket(bucket).objectLockEnabledForBucket(true));
    }

    @Test
    void aLockEnabledBucketIsVersioned() {
        assertThat(s3.getBucketVersioning(request -> request.bucket(bucket)).status())
            .isEqualTo(BucketVersioningStatus.ENABLED);
        assertThat(s3.getObjectLockConfiguration(request -> request.bucket(bucket)).objectLockConfiguration()
            .objectLockEnabled()).isEqualTo(ObjectLockEnabled.ENABLED);
        PutObjectResponse put = s3.putObject(request -> request.bucket(bucket).key("plain"), RequestBody.fromString("x"));
        assertThat(put.versionId()).hasSize(32);
        HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key("plain"));
        assertThat(head.objectLockMode()).isNull();
        assertThat(head.objectLockRetainUntilDate()).isNull();
        assertS3Error(() -> s3.getObjectRetention(request -> request.bucket(bucket).key("plain")),
            404, "NoSuchObjectLockConfiguration");
        assertS3Error(() -> s3.getObjectLegalHold(request -> request.bucket(bucket).key("plain")),
            404, "NoSuchObjectLockConfiguration");
    }

    @Test
    void governanceRetentionRefusesDeletionUnlessBypassed() {
        Instant until = inDays(1);
        PutObjectResponse put = s3.putObject(request -> request.bucket(bucket).key("governed")
            .objectLockMode(ObjectLockMode.GOVERNANCE).objectLockRetainUntilDate(until), RequestBody.fromString("g"));
        String version = put.versionId();

        HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key("governed"));
        assertThat(head.objectLockMode()).isEqualTo(ObjectLockMode.GOVERNANCE);
        assertThat(head.objectLockRetainUntilDate()).isEqualTo(until);
        assertThat(head.objectLockLegalHoldStatus()).isEqualTo(ObjectLockLegalHoldStatus.OFF);
        GetObjectRetentionResponse retention = s3.getObjectRetention(request -> request.bucket(bucket).key("governed")
            .versionId(version));
        assertThat(retention.retention().mode()).isEqualTo(ObjectLockRetentionMode.GOVERNANCE);
        assertThat(retention.retention().retainUntilDate()).isEqualTo(until);

        assertS3Error(() -> s3.deleteObject(request -> request.bucket(bucket).key("governed").versionId(version)),
            403, "AccessDenied");
        // A delete without a version id only adds a delete marker, which Object Lock allows.
        DeleteObjectResponse marker = s3.deleteObject(request -> request.bucket(bucket).key("governed"));
        assertThat(marker.deleteMarker()).isTrue();
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("governed").versionId(version))
            .asUtf8String()).isEqualTo("g");

        DeleteObjectResponse bypassed = s3.deleteObject(request -> request.bucket(bucket).key("governed")
            .versionId(version).bypassGovernanceRetention(true));
        assertThat(bypassed.versionId()).isEqualTo(version);
        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("governed").versionId(version)),
            404, "NoSuchVersion");
    }

    @Test
    void governanceRetentionCanBeLengthenedFreelyAndShortenedOnlyWithBypass() {
        String version = s3.putObject(request -> request.bucket(bucket).key("retention/governance")
            .objectLockMode(ObjectLockMode.GOVERNANCE).objectLockRetainUntilDate(inDays(2)),
            RequestBody.fromString("r")).versionId();
        s3.putObjectRetention(request -> request.bucket(bucket).key("retention/governance")
            .retention(retention -> retention.mode(ObjectLockRetentionMode.GOVERNANCE).retainUntilDate(inDays(5))));
        assertThat(retainUntil("retention/governance", version)).isEqualTo(inDays(5));

        assertS3Error(() -> s3.putObjectRetention(request -> request.bucket(bucket).key("retention/governance")
            .retention(retention -> retention.mode(ObjectLockRetentionMode.GOVERNANCE).retainUntilDate(inDays(1)))),
            403, "AccessDenied");
        s3.putObjectRetention(request -> request.bucket(bucket).key("retention/governance").versionId(version)
            .bypassGovernanceRetention(true)
            .retention(retention -> retention.mode(ObjectLockRetentionMode.GOVERNANCE).retainUntilDate(inDays(1))));
        assertThat(retainUntil("retention/governance", version)).isEqualTo(inDays(1));

        // Removing the retention takes the bypass too; then the version may go.
        assertS3Error(() -> s3.putObjectRetention(request -> request.bucket(bucket).key("retention/governance")
            .retention(retention -> { })), 403, "AccessDenied");
        s3.putObjectRetention(request -> request.bucket(bucket).key("retention/governance")
            .bypassGovernanceRetention(true).retention(retention -> { }));
        assertS3Error(() -> s3.getObjectRetention(request -> request.bucket(bucket).key("retention/governance")),
            404, "NoSuchObjectLockConfiguration");
        s3.deleteObject(request -> request.bucket(bucket).key("retention/governance").versionId(version));
    }

    @Test
    void complianceRetentionCannotBeShortenedRemovedOrBypassed() {
        String version = s3.putObject(request -> request.bucket(bucket).key("retention/compliance")
            .objectLockMode(ObjectLockMode.COMPLIANCE).objectLockRetainUntilDate(inDays(2)),
            RequestBody.fromString("c")).versionId();
        assertS3Error(() -> s3.deleteObject(request -> request.bucket(bucket).key("retention/compliance")
            .versionId(version).bypassGovernanceRetention(true)), 403, "AccessDenied");
        assertS3Error(() -> s3.putObjectRetention(request -> request.bucket(bucket).key("retention/compliance")
            .bypassGovernanceRetention(true)
            .retention(retention -> retention.mode(ObjectLockRetentionMode.COMPLIANCE).retainUntilDate(inDays(1)))),
            403, "AccessDenied");
        assertS3Error(() -> s3.putObjectRetention(request -> request.bucket(bucket).key("retention/compliance")
            .bypassGovernanceRetention(true)
            .retention(retention -> retention.mode(ObjectLockRetentionMode.GOVERNANCE).retainUntilDate(inDays(3)))),
            403, "AccessDenied");
        assertS3Error(() -> s3.putObjectRetention(request -> request.bucket(bucket).key("retention/compliance")
            .bypassGovernanceRetention(true).retention(retention -> { })), 403, "AccessDenied");
        s3.putObjectRetention(request -> request.bucket(bucket).key("retention/compliance")
            .retention(retention -> retention.mode(ObjectLockRetentionMode.COMPLIANCE).retainUntilDate(inDays(4))));
        assertThat(retainUntil("retention/compliance", version)).isEqualTo(inDays(4));

        DeleteObjectsResponse batch = s3.deleteObjects(request -> request.bucket(bucket).bypassGovernanceRetention(true)
            .delete(delete -> delete.objects(ObjectIdentifier.builder().key("retention/compliance").versionId(version)
                .build())));
        assertThat(batch.deleted()).isEmpty();
        assertThat(batch.errors()).singleElement().satisfies(error -> {
            assertThat(error.code()).isEqualTo("AccessDenied");
            assertThat(error.versionId()).isEqualTo(version);
        });
    }

    @Test
    void governanceCanBeTurnedIntoCompliance() {
        String version = s3.putObject(request -> request.bucket(bucket).key("retention/upgrade")
            .objectLockMode(ObjectLockMode.GOVERNANCE).objectLockRetainUntilDate(inDays(1)),
            RequestBody.fromString("u")).versionId();
        s3.putObjectRetention(request -> request.bucket(bucket).key("retention/upgrade").versionId(version)
            .retention(retention -> retention.mode(ObjectLockRetentionMode.COMPLIANCE).retainUntilDate(inDays(1))));
        assertThat(s3.getObjectRetention(request -> request.bucket(bucket).key("retention/upgrade")).retention().mode())
            .isEqualTo(ObjectLockRetentionMode.COMPLIANCE);
        assertS3Error(() -> s3.deleteObject(request -> request.bucket(bucket).key("retention/upgrade")
            .versionId(version).bypassGovernanceRetention(true)), 403, "AccessDenied");
    }

    @Test
    void legalHoldRefusesDeletionUntilLifted() {
        String version = s3.putObject(request -> request.bucket(bucket).key("held")
            .objectLockLegalHoldStatus(ObjectLockLegalHoldStatus.ON), RequestBody.fromString("h")).versionId();
        assertThat(s3.headObject(request -> request.bucket(bucket).key("held")).objectLockLegalHoldStatus())
            .isEqualTo(ObjectLockLegalHoldStatus.ON);
        assertThat(s3.getObjectLegalHold(request -> request.bucket(bucket).key("held")).legalHold().status())
            .isEqualTo(ObjectLockLegalHoldStatus.ON);
        assertS3Error(() -> s3.deleteObject(request -> request.bucket(bucket).key("held").versionId(version)
            .bypassGovernanceRetention(true)), 403, "AccessDenied");

        s3.putObjectLegalHold(request -> request.bucket(bucket).key("held").versionId(version)
            .legalHold(hold -> hold.status(ObjectLockLegalHoldStatus.OFF)));
        assertThat(s3.getObjectLegalHold(request -> request.bucket(bucket).key("held").versionId(version)).legalHold()
            .status()).isEqualTo(ObjectLockLegalHoldStatus.OFF);
        s3.deleteObject(request -> request.bucket(bucket).key("held").versionId(version));

        // A legal hold set later protects an object without one, and a retention stays beside it.
        String later = s3.putObject(request -> request.bucket(bucket).key("held-later")
            .objectLockMode(ObjectLockMode.GOVERNANCE).objectLockRetainUntilDate(inDays(1)),
            RequestBody.fromString("l")).versionId();
        s3.putObjectLegalHold(request -> request.bucket(bucket).key("held-later")
            .legalHold(hold -> hold.status(ObjectLockLegalHoldStatus.ON)));
        assertS3Error(() -> s3.deleteObject(request -> request.bucket(bucket).key("held-later").versionId(later)
            .bypassGovernanceRetention(true)), 403, "AccessDenied");
        assertThat(s3.getObjectRetention(request -> request.bucket(bucket).key("held-later")).retention().mode())
            .isEqualTo(ObjectLockRetentionMode.GOVERNANCE);
        s3.putObjectLegalHold(request -> request.bucket(bucket).key("held-later")
            .legalHold(hold -> hold.status(ObjectLockLegalHoldStatus.OFF)));
        s3.deleteObject(request -> request.bucket(bucket).key("held-later").versionId(later)
            .bypassGovernanceRetention(true));
    }

    @Test
    void multipartUploadsAndCopiesTakeTheLockTheyAskFor() {
        String key = "multipart/locked";
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)
            .objectLockMode(ObjectLockMode.GOVERNANCE).objectLockRetainUntilDate(inDays(1))
            .objectLockLegalHoldStatus(ObjectLockLegalHoldStatus.ON)).uploadId();
        String etag = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(1),
            RequestBody.fromString("parts")).eTag();
        String version = s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(CompletedPart.builder().partNumber(1).eTag(etag).build())))
            .versionId();
        HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key(key).versionId(version));
        assertThat(head.objectLockMode()).isEqualTo(ObjectLockMode.GOVERNANCE);
        assertThat(head.objectLockRetainUntilDate()).isEqualTo(inDays(1));
        assertThat(head.objectLockLegalHoldStatus()).isEqualTo(ObjectLockLegalHoldStatus.ON);

        // Lock settings are not copied; the copy asks for its own.
        String copy = s3.copyObject(request -> request.sourceBucket(bucket).sourceKey(key).destinationBucket(bucket)
            .destinationKey("copy/locked").objectLockMode(ObjectLockMode.COMPLIANCE)
            .objectLockRetainUntilDate(inDays(1))).versionId();
        HeadObjectResponse copied = s3.headObject(request -> request.bucket(bucket).key("copy/locked"));
        assertThat(copied.versionId()).isEqualTo(copy);
        assertThat(copied.objectLockMode()).isEqualTo(ObjectLockMode.COMPLIANCE);
        assertThat(copied.objectLockLegalHoldStatus()).isEqualTo(ObjectLockLegalHoldStatus.OFF);
        String plainCopy = s3.copyObject(request -> request.sourceBucket(bucket).sourceKey(key).destinationBucket(bucket)
            .destinationKey("copy/unlocked")).versionId();
        assertThat(s3.headObject(request -> request.bucket(bucket).key("copy/unlocked")).objectLockMode()).isNull();
        s3.deleteObject(request -> request.bucket(bucket).key("copy/unlocked").versionId(plainCopy));
    }

    @Test
    void theBucketDefaultRetentionAppliesToNewVersions() {
        String defaulted = newBucketName("lock-default");
        s3.createBucket(request -> request.bucket(defaulted).objectLockEnabledForBucket(true));
        s3.putObjectLockConfiguration(request -> request.bucket(defaulted).objectLockConfiguration(config -> config
            .objectLockEnabled(ObjectLockEnabled.ENABLED)
            .rule(rule -> rule.defaultRetention(retention -> retention.mode(ObjectLockRetentionMode.GOVERNANCE).days(2)))));
        Instant before = Instant.now();
        String version = s3.putObject(request -> request.bucket(defaulted).key("defaulted"), RequestBody.fromString("d"))
            .versionId();
        HeadObjectResponse head = s3.headObject(request -> request.bucket(defaulted).key("defaulted"));
        assertThat(head.objectLockMode()).isEqualTo(ObjectLockMode.GOVERNANCE);
        assertThat(head.objectLockRetainUntilDate())
            .isBetween(before.plus(Duration.ofDays(2)).minusSeconds(5), Instant.now().plus(Duration.ofDays(2)).plusSeconds(5));
        assertS3Error(() -> s3.deleteObject(request -> request.bucket(defaulted).key("defaulted").versionId(version)),
            403, "AccessDenied");

        // Headers of the request win over the default.
        s3.putObject(request -> request.bucket(defaulted).key("explicit").objectLockMode(ObjectLockMode.COMPLIANCE)
            .objectLockRetainUntilDate(inDays(1)), RequestBody.fromString("e"));
        assertThat(s3.headObject(request -> request.bucket(defaulted).key("explicit")).objectLockMode())
            .isEqualTo(ObjectLockMode.COMPLIANCE);
    }

    @Test
    void aDefaultRetentionPeriodOutOfRangeIsInvalidRetentionPeriod() {
        String refused = newBucketName("lock-period");
        s3.createBucket(request -> request.bucket(refused).objectLockEnabledForBucket(true));
        for (Integer days : new Integer[] {0, -1, 36501}) {
            assertS3Error(() -> s3.putObjectLockConfiguration(request -> request.bucket(refused)
                .objectLockConfiguration(config -> config.objectLockEnabled(ObjectLockEnabled.ENABLED)
                    .rule(rule -> rule.defaultRetention(retention -> retention.mode(ObjectLockRetentionMode.GOVERNANCE)
                        .days(days))))), 400, "InvalidRetentionPeriod");
        }
        for (Integer years : new Integer[] {0, -1, 101}) {
            assertS3Error(() -> s3.putObjectLockConfiguration(request -> request.bucket(refused)
                .objectLockConfiguration(config -> config.objectLockEnabled(ObjectLockEnabled.ENABLED)
                    .rule(rule -> rule.defaultRetention(retention -> retention.mode(ObjectLockRetentionMode.COMPLIANCE)
                        .years(years))))), 400, "InvalidRetentionPeriod");
        }
        assertThat(s3.getObjectLockConfiguration(request -> request.bucket(refused)).objectLockConfiguration().rule())
            .isNull();
    }

    @Test
    void lockHeadersAreChecked() {
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("bad")
            .objectLockMode(ObjectLockMode.GOVERNANCE), RequestBody.fromString("x")), 400, "InvalidArgument");
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("bad")
            .objectLockRetainUntilDate(inDays(1)), RequestBody.fromString("x")), 400, "InvalidArgument");
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("bad")
            .objectLockMode(ObjectLockMode.GOVERNANCE).objectLockRetainUntilDate(Instant.now().minusSeconds(60)),
            RequestBody.fromString("x")), 400, "InvalidArgument");
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("bad").objectLockMode("FOREVER")
            .objectLockRetainUntilDate(inDays(1)), RequestBody.fromString("x")), 400, "InvalidArgument");
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("bad").objectLockLegalHoldStatus("MAYBE"),
            RequestBody.fromString("x")), 400, "InvalidArgument");
        s3.putObject(request -> request.bucket(bucket).key("retention/past"), RequestBody.fromString("x"));
        assertS3Error(() -> s3.putObjectRetention(request -> request.bucket(bucket).key("retention/past")
            .retention(retention -> retention.mode(ObjectLockRetentionMode.GOVERNANCE)
                .retainUntilDate(Instant.now().minusSeconds(60)))), 400, "InvalidArgument");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("bad")), 404);
    }

    @Test
    void bucketsWithoutObjectLockRefuseLockSettings() {
        String plain = createBucket("lock-missing");
        s3.putObject(request -> request.bucket(plain).key("k"), RequestBody.fromString("x"));
        assertS3Error(() -> s3.putObject(request -> request.bucket(plain).key("locked")
            .objectLockMode(ObjectLockMode.GOVERNANCE).objectLockRetainUntilDate(inDays(1)), RequestBody.fromString("x")),
            400, "InvalidRequest");
        assertS3Error(() -> s3.putObject(request -> request.bucket(plain).key("locked")
            .objectLockLegalHoldStatus(ObjectLockLegalHoldStatus.ON), RequestBody.fromString("x")), 400, "InvalidRequest");
        assertS3Error(() -> s3.createMultipartUpload(request -> request.bucket(plain).key("locked")
            .objectLockLegalHoldStatus(ObjectLockLegalHoldStatus.ON)), 400, "InvalidRequest");
        assertS3Error(() -> s3.getObjectRetention(request -> request.bucket(plain).key("k")), 400, "InvalidRequest");
        assertS3Error(() -> s3.putObjectRetention(request -> request.bucket(plain).key("k")
            .retention(retention -> retention.mode(ObjectLockRetentionMode.GOVERNANCE).retainUntilDate(inDays(1)))),
            400, "InvalidRequest");
        assertS3Error(() -> s3.getObjectLegalHold(request -> request.bucket(plain).key("k")), 400, "InvalidRequest");
        assertS3Error(() -> s3.putObjectLegalHold(request -> request.bucket(plain).key("k")
            .legalHold(hold -> hold.status(ObjectLockLegalHoldStatus.ON))), 400, "InvalidRequest");
        assertS3Error(() -> s3.getObjectRetention(request -> request.bucket(newBucketName("lock-nowhere")).key("k")),
            404, "NoSuchBucket");
        assertS3Error(() -> s3.getObjectRetention(request -> request.bucket(bucket).key("missing")), 404, "NoSuchKey");
    }

    private Instant retainUntil(String key, String version) {
        return s3.getObjectRetention(request -> request.bucket(bucket).key(key).versionId(version)).retention()
            .retainUntilDate();
    }

    /** A whole second some days ahead, so that dates compare exactly after their trip through ISO 8601. */
    private static Instant inDays(int days) {
        return Instant.now().plus(Duration.ofDays(days)).truncatedTo(ChronoUnit.DAYS).plus(Duration.ofHours(12));
    }

    /**
     * A legal hold set while a delete of the same version is in flight: the store checks the hold when it
     * applies the delete, so either the delete went first (the hold then finds no version: 404) or the hold
     * did (the delete is refused: 403), never a hold acknowledged on a version that is gone.
     */
    @Test
    void aLegalHoldRacingADeleteIsNeverLost() throws Exception {
        int rounds = 40;
        // Through one node: a leaderless cluster checks the hold against its coordinator's state, atomically
        // only with what that coordinator applies, so a hold and a delete through two nodes can both succeed
        // (docs/cluster.md, metadata commands and replication). On one coordinator it is exact.
        S3Client s3 = s3OnOneNode();
        try (java.util.concurrent.ExecutorService executor = java.util.concurrent.Executors.newFixedThreadPool(2)) {
            for (int round = 0; round < rounds; round++) {
                String key = "raced-" + round;
                String version = s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString(key))
                        .versionId();
                java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
                java.util.concurrent.Future<Integer> hold = executor.submit(() -> {
                    start.await();
                    return statusOf(() -> s3.putObjectLegalHold(request -> request.bucket(bucket).key(key)
                            .versionId(version).legalHold(h -> h.status(ObjectLockLegalHoldStatus.ON))));
                });
                java.util.concurrent.Future<Integer> delete = executor.submit(() -> {
                    start.await();
                    return statusOf(() -> s3.deleteObject(request -> request.bucket(bucket).key(key).versionId(version)));
                });
                start.countDown();
                int held = hold.get();
                int deleted = delete.get();
                boolean present = statusOf(() -> s3.headObject(request -> request.bucket(bucket).key(key)
                        .versionId(version))) == 200;
                String what = "round " + round + ": hold " + held + ", delete " + deleted;
                if (held == 200) {
                    assertThat(deleted).as(what).isEqualTo(403);
                    assertThat(present).as(what + ": the held version is there").isTrue();
                    // Lift it so the bucket stays cleanable.
                    s3.putObjectLegalHold(request -> request.bucket(bucket).key(key).versionId(version)
                            .legalHold(h -> h.status(ObjectLockLegalHoldStatus.OFF)));
                } else {
                    assertThat(held).as(what).isEqualTo(404);
                    assertThat(deleted).as(what + " (200: it succeeded)").isEqualTo(200);
                    assertThat(present).as(what + ": the deleted version is gone").isFalse();
                }
            }
        }
    }

    /** 200 if the call succeeded, else the status of the S3 error it got. */
    private static int statusOf(Runnable call) {
        try {
            call.run();
            return 200;
        } catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
            return e.statusCode();
        }
    }
}
