package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.AbortIncompleteMultipartUpload;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.ExpirationStatus;
import software.amazon.awssdk.services.s3.model.LifecycleExpiration;
import software.amazon.awssdk.services.s3.model.LifecycleRule;
import software.amazon.awssdk.services.s3.model.LifecycleRuleFilter;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.NoncurrentVersionExpiration;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.Tag;

/**
 * Lifecycle rules put with PutBucketLifecycleConfiguration, applied by the lifecycle worker. Each test runs a
 * pass over its own bucket through the management endpoint ({@code POST /actuator/lifecycle}), "as of" a later
 * instant where a rule counts days, so that days pass without waiting for them.
 */
class LifecycleIT extends AbstractS3IT {

    private static final Duration THREE_DAYS = Duration.ofDays(3);

    private AdminApi admin;

    @BeforeAll
    void connectAdmin() {
        admin = new AdminApi(managementEndpoint(), http);
    }

    @Test
    void expirationWithAPastDateDeletesCurrentObjectsOfAnUnversionedBucket() {
        String bucket = createBucket("lc-date");
        put(bucket, "a.txt", "a");
        put(bucket, "b/c.txt", "c");
        rules(bucket, rule("past", LifecycleRuleFilter.builder().prefix("").build())
                .expiration(LifecycleExpiration.builder().date(pastMidnight()).build())
                .build());

        assertThat(admin.runLifecycle(bucket, null)).isEqualTo(2);

        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("a.txt")), 404, "NoSuchKey");
        assertThat(keys(bucket)).isEmpty();
        assertThat(s3.listObjectVersions(request -> request.bucket(bucket)).versions()).isEmpty();
    }

    @Test
    void expirationInAVersionedBucketPutsADeleteMarkerOnTop() {
        String bucket = createBucket("lc-versioned");
        versioning(bucket, BucketVersioningStatus.ENABLED);
        String versionId = put(bucket, "a.txt", "a");
        rules(bucket, rule("past", LifecycleRuleFilter.builder().prefix("").build())
                .expiration(LifecycleExpiration.builder().date(pastMidnight()).build())
                .build());

        assertThat(admin.runLifecycle(bucket, null)).isEqualTo(1);

        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("a.txt")), 404, "NoSuchKey");
        ListObjectVersionsResponse versions = s3.listObjectVersions(request -> request.bucket(bucket));
        assertThat(versions.deleteMarkers()).singleElement().satisfies(marker -> {
            assertThat(marker.key()).isEqualTo("a.txt");
            assertThat(marker.isLatest()).isTrue();
            assertThat(marker.versionId()).isNotEqualTo("null").isNotEqualTo(versionId);
        });
        assertThat(versions.versions()).extracting(ObjectVersion::versionId).containsExactly(versionId);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("a.txt").versionId(versionId))
                .asUtf8String()).isEqualTo("a");

        // The marker is current already: a second pass leaves it alone.
        assertThat(admin.runLifecycle(bucket, null)).isZero();
    }

    @Test
    void expirationDaysActOnceTheDaysHavePassed() {
        String bucket = createBucket("lc-days");
        put(bucket, "a.txt", "a");
        rules(bucket, rule("two-days", LifecycleRuleFilter.builder().prefix("").build())
                .expiration(LifecycleExpiration.builder().days(2).build())
                .build());

        assertThat(admin.runLifecycle(bucket, null)).isZero();
        assertThat(admin.runLifecycle(bucket, Instant.now().plus(Duration.ofDays(1)))).isZero();
        assertThat(keys(bucket)).containsExactly("a.txt");

        assertThat(admin.runLifecycle(bucket, Instant.now().plus(THREE_DAYS))).isEqualTo(1);
        assertThat(keys(bucket)).isEmpty();
    }

    @Test
    void noncurrentVersionExpirationDeletesOnlyOldVersions() {
        String bucket = createBucket("lc-noncurrent");
        versioning(bucket, BucketVersioningStatus.ENABLED);
        String first = put(bucket, "a.txt", "first");
        String second = put(bucket, "a.txt", "second");
        String third = put(bucket, "a.txt", "third");
        String only = put(bucket, "single.txt", "single");
        rules(bucket, rule("noncurrent", LifecycleRuleFilter.builder().prefix("").build())
                .noncurrentVersionExpiration(NoncurrentVersionExpiration.builder().noncurrentDays(1).build())
                .build());

        assertThat(admin.runLifecycle(bucket, null)).isZero();
        assertThat(versionIds(bucket)).containsExactlyInAnyOrder(first, second, third, only);

        assertThat(admin.runLifecycle(bucket, Instant.now().plus(THREE_DAYS))).isEqualTo(2);

        assertThat(versionIds(bucket)).containsExactlyInAnyOrder(third, only);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("a.txt")).asUtf8String())
                .isEqualTo("third");
    }

    @Test
    void newerNoncurrentVersionsAreKept() {
        String bucket = createBucket("lc-newer");
        versioning(bucket, BucketVersioningStatus.ENABLED);
        put(bucket, "a.txt", "1");
        put(bucket, "a.txt", "2");
        String third = put(bucket, "a.txt", "3");
        String fourth = put(bucket, "a.txt", "4");
        rules(bucket, rule("keep-one", LifecycleRuleFilter.builder().prefix("").build())
                .noncurrentVersionExpiration(NoncurrentVersionExpiration.builder().noncurrentDays(1)
                        .newerNoncurrentVersions(1).build())
                .build());

        assertThat(admin.runLifecycle(bucket, Instant.now().plus(THREE_DAYS))).isEqualTo(2);

        assertThat(versionIds(bucket)).containsExactlyInAnyOrder(third, fourth);
    }

    @Test
    void expiredObjectDeleteMarkersAreRemovedWhenNothingIsLeftBeneathThem() {
        String bucket = createBucket("lc-markers");
        versioning(bucket, BucketVersioningStatus.ENABLED);
        String lone = put(bucket, "lone.txt", "lone");
        s3.deleteObject(request -> request.bucket(bucket).key("lone.txt"));
        s3.deleteObject(request -> request.bucket(bucket).key("lone.txt").versionId(lone));
        String covered = put(bucket, "covered.txt", "covered");
        s3.deleteObject(request -> request.bucket(bucket).key("covered.txt"));
        rules(bucket, rule("markers", LifecycleRuleFilter.builder().prefix("").build())
                .expiration(LifecycleExpiration.builder().expiredObjectDeleteMarker(true).build())
                .build());

        assertThat(admin.runLifecycle(bucket, null)).isEqualTo(1);

        ListObjectVersionsResponse versions = s3.listObjectVersions(request -> request.bucket(bucket));
        assertThat(versions.deleteMarkers()).extracting(DeleteMarkerEntry::key).containsExactly("covered.txt");
        assertThat(versions.versions()).extracting(ObjectVersion::versionId).containsExactly(covered);
    }

    @Test
    void incompleteMultipartUploadsAreAbortedWhenOldEnough() {
        String bucket = createBucket("lc-uploads");
        String stale = s3.createMultipartUpload(request -> request.bucket(bucket).key("tmp/big.bin")).uploadId();
        String kept = s3.createMultipartUpload(request -> request.bucket(bucket).key("keep/big.bin")).uploadId();
        rules(bucket, rule("uploads", LifecycleRuleFilter.builder().prefix("tmp/").build())
                .abortIncompleteMultipartUpload(AbortIncompleteMultipartUpload.builder().daysAfterInitiation(1).build())
                .build());

        assertThat(admin.runLifecycle(bucket, null)).isZero();
        assertThat(uploads(bucket)).containsExactlyInAnyOrder(stale, kept);

        assertThat(admin.runLifecycle(bucket, Instant.now().plus(THREE_DAYS))).isEqualTo(1);

        assertThat(uploads(bucket)).containsExactly(kept);
        assertS3Error(() -> s3.listParts(request -> request.bucket(bucket).key("tmp/big.bin").uploadId(stale)),
                404, "NoSuchUpload");
    }

    @Test
    void prefixAndTagFiltersChooseTheObjects() {
        String bucket = createBucket("lc-filters");
        put(bucket, "logs/1.txt", "log");
        put(bucket, "data/plain.txt", "plain");
        s3.putObject(request -> request.bucket(bucket).key("data/temp.txt").tagging("class=temp"),
                RequestBody.fromString("temp"));
        s3.putObject(request -> request.bucket(bucket).key("data/kept.txt").tagging("class=keep"),
                RequestBody.fromString("kept"));
        rules(bucket,
                rule("logs", LifecycleRuleFilter.builder().prefix("logs/").build())
                        .expiration(LifecycleExpiration.builder().days(1).build())
                        .build(),
                rule("temporary", LifecycleRuleFilter.builder()
                        .tag(Tag.builder().key("class").value("temp").build()).build())
                        .expiration(LifecycleExpiration.builder().days(1).build())
                        .build());

        assertThat(admin.runLifecycle(bucket, Instant.now().plus(THREE_DAYS))).isEqualTo(2);

        assertThat(keys(bucket)).containsExactly("data/kept.txt", "data/plain.txt");
    }

    @Test
    void disabledRulesAreIgnored() {
        String bucket = createBucket("lc-disabled");
        put(bucket, "a.txt", "a");
        rules(bucket, rule("off", LifecycleRuleFilter.builder().prefix("").build())
                .status(ExpirationStatus.DISABLED)
                .expiration(LifecycleExpiration.builder().days(1).build())
                .build());

        assertThat(admin.runLifecycle(bucket, Instant.now().plus(Duration.ofDays(30)))).isZero();

        assertThat(keys(bucket)).containsExactly("a.txt");
    }

    @Test
    void aBucketWithoutRulesAndOtherBucketsAreLeftAlone() {
        String ruled = createBucket("lc-ruled");
        String plain = createBucket("lc-plain");
        put(ruled, "a.txt", "a");
        put(plain, "a.txt", "a");
        rules(ruled, rule("all", LifecycleRuleFilter.builder().prefix("").build())
                .expiration(LifecycleExpiration.builder().days(1).build())
                .build());

        assertThat(admin.runLifecycle(plain, Instant.now().plus(THREE_DAYS))).isZero();

        assertThat(keys(plain)).containsExactly("a.txt");
        assertThat(keys(ruled)).containsExactly("a.txt");
    }

    @Test
    void theEndpointReportsTheWorkerAndRefusesABadInstant() {
        String bucket = createBucket("lc-metrics");
        put(bucket, "a.txt", "a");
        rules(bucket, rule("past", LifecycleRuleFilter.builder().prefix("").build())
                .expiration(LifecycleExpiration.builder().date(pastMidnight()).build())
                .build());
        assertThat(admin.runLifecycle(bucket, null)).isEqualTo(1);

        AdminApi.Response status = admin.get("/actuator/lifecycle");
        assertThat(status.status()).isEqualTo(200);
        assertThat(status.json().get("interval").asString()).isEqualTo("PT1H");
        assertThat(status.json().get("actions").get("expire-object").asLong()).isPositive();

        AdminApi.Response bad = admin.post("/actuator/lifecycle", Map.of("bucket", bucket, "asOf", "tomorrow"));
        assertThat(bad.status()).isEqualTo(400);

        String scrape = raw.send(HttpRequest.newBuilder(URI.create(managementEndpoint() + "/actuator/prometheus"))
                .GET().build()).bodyText();
        assertThat(scrape).containsPattern("hangar_lifecycle_actions_total\\{[^}]*action=\"expire-object\"");
    }

    // Helpers

    private static LifecycleRule.Builder rule(String id, LifecycleRuleFilter filter) {
        return LifecycleRule.builder().id(id).filter(filter).status(ExpirationStatus.ENABLED);
    }

    private void rules(String bucket, LifecycleRule... rules) {
        s3.putBucketLifecycleConfiguration(request -> request.bucket(bucket)
                .lifecycleConfiguration(configuration -> configuration.rules(rules)));
    }

    private void versioning(String bucket, BucketVersioningStatus status) {
        s3.putBucketVersioning(request -> request.bucket(bucket)
                .versioningConfiguration(configuration -> configuration.status(status)));
    }

    /** Puts an object; returns its version id (null in a bucket never versioned). */
    private String put(String bucket, String key, String content) {
        return s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString(content)).versionId();
    }

    private List<String> keys(String bucket) {
        return s3.listObjectsV2(request -> request.bucket(bucket)).contents().stream().map(S3Object::key).toList();
    }

    private List<String> versionIds(String bucket) {
        return s3.listObjectVersions(request -> request.bucket(bucket)).versions().stream()
                .map(ObjectVersion::versionId)
                .toList();
    }

    private List<String> uploads(String bucket) {
        return s3.listMultipartUploads(request -> request.bucket(bucket)).uploads().stream()
                .map(MultipartUpload::uploadId)
                .toList();
    }

    /** Midnight UTC two days ago: S3 takes lifecycle dates at midnight only. */
    private static Instant pastMidnight() {
        return LocalDate.now(ZoneOffset.UTC).minusDays(2).atStartOfDay(ZoneOffset.UTC).toInstant();
    }
}
