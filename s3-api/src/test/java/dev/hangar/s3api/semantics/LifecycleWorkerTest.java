package dev.hangar.s3api.semantics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ListedVersion;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.MetadataStores;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectLock;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.RetentionMode;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.metadata.rocksdb.RocksDbConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lifecycle worker against a real metadata store: what it deletes, marks and aborts, what it leaves (locked
 * versions, versions changed since listed, rules disabled or not matching), and that paging while deleting loses
 * no version.
 */
class LifecycleWorkerTest {
    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");
    private static final String BUCKET = "photos";
    private static final String NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";

    @TempDir
    Path folder;

    private MetadataStore metadata;
    private final AtomicInteger reclaims = new AtomicInteger();
    private int versionCounter;
    private int versionsWritten;

    @BeforeEach
    void openStore() {
        metadata = MetadataStores.rocksDb(RocksDbConfig.defaults(folder));
        metadata.createBucket(new BucketRecord(BUCKET, NOW.minus(Duration.ofDays(400)), "us-east-1"));
    }

    @AfterEach
    void closeStore() {
        metadata.close();
    }

    @Test
    void expirationDaysDeletesDueObjectsOfAnUnversionedBucket() {
        lifecycle(rule("<Filter/>", "<Expiration><Days>3</Days></Expiration>"));
        put("old", ObjectVersion.NULL_VERSION, daysAgo(5));
        put("young", ObjectVersion.NULL_VERSION, daysAgo(1));

        long actions = worker().runOnce(NOW);

        assertThat(actions).isEqualTo(1);
        assertThat(metadata.getObject(BUCKET, "old")).isEmpty();
        assertThat(metadata.getObject(BUCKET, "young")).isPresent();
        assertThat(reclaims).hasPositiveValue();
    }

    @Test
    void aPassAsOfALaterInstantExpiresWhatIsDueThen() {
        lifecycle(rule("<Filter/>", "<Expiration><Days>3</Days></Expiration>"));
        put("young", ObjectVersion.NULL_VERSION, daysAgo(1));
        LifecycleWorker worker = worker();

        assertThat(worker.runOnce(NOW)).isZero();
        assertThat(worker.runOnce(NOW.plus(Duration.ofDays(4)))).isEqualTo(1);

        assertThat(metadata.getObject(BUCKET, "young")).isEmpty();
        assertThat(worker.total(LifecycleAction.EXPIRE_OBJECT)).isEqualTo(1);
    }

    @Test
    void expirationDateInThePastExpiresEveryMatchingObject() {
        lifecycle(rule("<Filter><Prefix>logs/</Prefix></Filter>",
                "<Expiration><Date>2026-01-01T00:00:00Z</Date></Expiration>"));
        put("logs/1", ObjectVersion.NULL_VERSION, daysAgo(1));
        put("logs/2", ObjectVersion.NULL_VERSION, daysAgo(100));
        put("photos/1", ObjectVersion.NULL_VERSION, daysAgo(100));

        assertThat(worker().runOnce(NOW)).isEqualTo(2);

        assertThat(keysWithVersions()).containsExactly("photos/1");
    }

    @Test
    void expirationPutsADeleteMarkerWithAFreshIdInAVersioningEnabledBucket() {
        versioning("Enabled");
        lifecycle(rule("<Filter/>", "<Expiration><Days>1</Days></Expiration>"));
        put("cat.jpg", "v1", daysAgo(3));

        assertThat(worker().runOnce(NOW)).isEqualTo(1);

        ObjectVersion marker = metadata.getObject(BUCKET, "cat.jpg").orElseThrow();
        assertThat(marker.isDeleteMarker()).isTrue();
        assertThat(VersionIds.wellFormed(marker.versionId())).isTrue();
        assertThat(marker.versionId()).isNotEqualTo(ObjectVersion.NULL_VERSION);
        assertThat(marker.lastModified()).isEqualTo(NOW);
        assertThat(metadata.getVersion(BUCKET, "cat.jpg", "v1")).isPresent();
    }

    @Test
    void expirationPutsANullDeleteMarkerReplacingTheNullVersionWhenVersioningIsSuspended() {
        versioning("Suspended");
        lifecycle(rule("<Filter/>", "<Expiration><Days>1</Days></Expiration>"));
        put("cat.jpg", "v1", daysAgo(10));
        put("cat.jpg", ObjectVersion.NULL_VERSION, daysAgo(3));

        assertThat(worker().runOnce(NOW)).isEqualTo(1);

        List<ObjectVersion> versions = versions("cat.jpg");
        assertThat(versions).extracting(ObjectVersion::versionId).containsExactly("null", "v1");
        assertThat(versions.getFirst().isDeleteMarker()).isTrue();
    }

    @Test
    void aCurrentDeleteMarkerIsNotExpiredAgain() {
        versioning("Enabled");
        lifecycle(rule("<Filter/>", "<Expiration><Days>1</Days></Expiration>"));
        put("cat.jpg", "v1", daysAgo(10));
        marker("cat.jpg", "m1", daysAgo(5));

        assertThat(worker().runOnce(NOW)).isZero();

        assertThat(versions("cat.jpg")).extracting(ObjectVersion::versionId).containsExactly("m1", "v1");
    }

    @Test
    void noncurrentVersionExpirationDeletesOnlyOldNoncurrentVersions() {
        versioning("Enabled");
        lifecycle(rule("<Filter/>", "<NoncurrentVersionExpiration><NoncurrentDays>2</NoncurrentDays>"
                + "</NoncurrentVersionExpiration>"));
        put("cat.jpg", "v1", daysAgo(30));
        put("cat.jpg", "v2", daysAgo(10));
        put("cat.jpg", "v3", daysAgo(1));
        put("cat.jpg", "v4", NOW.minus(Duration.ofHours(1)));

        // v1 became noncurrent 10 days ago, v2 one day ago (not due), v3 an hour ago.
        assertThat(worker().runOnce(NOW)).isEqualTo(1);

        assertThat(versions("cat.jpg")).extracting(ObjectVersion::versionId).containsExactly("v4", "v3", "v2");
    }

    @Test
    void newerNoncurrentVersionsAreKept() {
        versioning("Enabled");
        lifecycle(rule("<Filter/>", "<NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays>"
                + "<NewerNoncurrentVersions>2</NewerNoncurrentVersions></NoncurrentVersionExpiration>"));
        for (int i = 1; i <= 6; i++) {
            put("cat.jpg", "v" + i, daysAgo(20 - i));
        }

        assertThat(worker().runOnce(NOW)).isEqualTo(3);

        assertThat(versions("cat.jpg")).extracting(ObjectVersion::versionId).containsExactly("v6", "v5", "v4");
    }

    @Test
    void expiredObjectDeleteMarkersAreRemovedOnlyWhenAlone() {
        versioning("Enabled");
        lifecycle(rule("<Filter/>", "<Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker>"
                + "</Expiration>"));
        marker("lone", "m1", daysAgo(1));
        put("covered", "v1", daysAgo(3));
        marker("covered", "m2", daysAgo(1));

        assertThat(worker().runOnce(NOW)).isEqualTo(1);

        assertThat(metadata.getObject(BUCKET, "lone")).isEmpty();
        assertThat(versions("covered")).extracting(ObjectVersion::versionId).containsExactly("m2", "v1");
        assertThat(worker().total(LifecycleAction.REMOVE_DELETE_MARKER)).isZero();
    }

    @Test
    void aDeleteMarkerLeftAloneByThisPassIsRemovedInTheSamePass() {
        versioning("Enabled");
        lifecycle(rule("<Filter/>", "<Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker>"
                + "</Expiration><NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays>"
                + "</NoncurrentVersionExpiration>"));
        put("cat.jpg", "v1", daysAgo(10));
        marker("cat.jpg", "m1", daysAgo(5));

        assertThat(worker().runOnce(NOW)).isEqualTo(2);

        assertThat(versions("cat.jpg")).isEmpty();
    }

    @Test
    void lockedVersionsAreNeverDeleted() {
        versioning("Enabled");
        lifecycle(rule("<Filter/>", "<NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays>"
                + "</NoncurrentVersionExpiration>"));
        put("held", "v1", daysAgo(30), Map.of(), new ObjectLock(null, null, true));
        put("held", "v2", daysAgo(20));
        put("retained", "v1", daysAgo(30),
                Map.of(), new ObjectLock(RetentionMode.GOVERNANCE, NOW.plus(Duration.ofDays(10)), false));
        put("retained", "v2", daysAgo(20));
        put("expired-retention", "v1", daysAgo(30),
                Map.of(), new ObjectLock(RetentionMode.COMPLIANCE, daysAgo(1), false));
        put("expired-retention", "v2", daysAgo(20));

        // As of a month ahead the retention of "retained" would be over, but it is judged at the real time.
        assertThat(worker().runOnce(NOW.plus(Duration.ofDays(30)))).isEqualTo(1);

        assertThat(versions("held")).extracting(ObjectVersion::versionId).containsExactly("v2", "v1");
        assertThat(versions("retained")).extracting(ObjectVersion::versionId).containsExactly("v2", "v1");
        assertThat(versions("expired-retention")).extracting(ObjectVersion::versionId).containsExactly("v2");
    }

    @Test
    void tagAndSizeFiltersAreRespected() {
        lifecycle(rule("<Filter><And><Prefix>a/</Prefix><Tag><Key>class</Key><Value>temp</Value></Tag>"
                + "<ObjectSizeLessThan>10</ObjectSizeLessThan></And></Filter>",
                "<Expiration><Days>1</Days></Expiration>"));
        put("a/tagged", ObjectVersion.NULL_VERSION, daysAgo(5), Map.of("class", "temp", "other", "x"), null);
        put("a/other-tag", ObjectVersion.NULL_VERSION, daysAgo(5), Map.of("class", "keep"), null);
        put("a/untagged", ObjectVersion.NULL_VERSION, daysAgo(5));
        put("b/tagged", ObjectVersion.NULL_VERSION, daysAgo(5), Map.of("class", "temp"), null);

        assertThat(worker().runOnce(NOW)).isEqualTo(1);

        assertThat(keysWithVersions()).containsExactly("a/other-tag", "a/untagged", "b/tagged");
    }

    @Test
    void disabledRulesAndBucketsWithoutRulesAreLeftAlone() {
        lifecycle("""
                <LifecycleConfiguration xmlns="%s"><Rule><ID>off</ID><Filter/><Status>Disabled</Status>\
                <Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>""".formatted(NAMESPACE));
        put("old", ObjectVersion.NULL_VERSION, daysAgo(50));
        metadata.createBucket(new BucketRecord("plain", NOW.minus(Duration.ofDays(100)), "us-east-1"));
        putIn("plain", "old", ObjectVersion.NULL_VERSION, daysAgo(50));

        assertThat(worker().runOnce(NOW)).isZero();

        assertThat(metadata.getObject(BUCKET, "old")).isPresent();
        assertThat(metadata.getObject("plain", "old")).isPresent();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 1000})
    void pagingWhileDeletingLosesNoVersion(int pageSize) {
        versioning("Enabled");
        lifecycle(rule("<Filter/>", "<Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker>"
                + "</Expiration><NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays>"
                + "</NoncurrentVersionExpiration>"));
        List<String> expectedLeft = new ArrayList<>();
        for (int k = 0; k < 7; k++) {
            String key = "key-" + k;
            for (int v = 0; v < k % 4 + 1; v++) {
                put(key, key + "-v" + v, daysAgo(30 - v));
            }
            if (k % 3 == 0) {
                marker(key, key + "-m", daysAgo(10));
            } else {
                expectedLeft.add(key);
            }
        }

        long actions = new LifecycleWorker(metadata, new BucketConfigurations(metadata), reclaims::incrementAndGet,
                Clock.fixed(NOW, ZoneOffset.UTC), pageSize).runOnce(NOW);

        assertThat(keysWithVersions()).containsExactlyElementsOf(expectedLeft);
        for (String key : expectedLeft) {
            assertThat(versions(key)).as(key).hasSize(1);
        }
        assertThat(actions).isEqualTo(versionsWritten - expectedLeft.size());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 1000})
    void incompleteUploadsAreAbortedWhenDue(int pageSize) throws Exception {
        lifecycle(rule("<Filter><Prefix>tmp/</Prefix></Filter>",
                "<AbortIncompleteMultipartUpload><DaysAfterInitiation>2</DaysAfterInitiation>"
                        + "</AbortIncompleteMultipartUpload>"));
        for (int i = 0; i < 5; i++) {
            metadata.createUpload(upload("tmp/" + (i % 2), "u-old-" + i, daysAgo(5)));
        }
        metadata.createUpload(upload("tmp/young", "u-young", daysAgo(1)));
        metadata.createUpload(upload("keep/old", "u-keep", daysAgo(5)));

        long actions = new LifecycleWorker(metadata, new BucketConfigurations(metadata), reclaims::incrementAndGet,
                Clock.fixed(NOW, ZoneOffset.UTC), pageSize).runOnce(NOW);

        assertThat(actions).isEqualTo(5);
        assertThat(metadata.listUploads(BUCKET, "", null, null, null, 100).uploads())
                .extracting(MultipartUpload::uploadId)
                .containsExactlyInAnyOrder("u-young", "u-keep");
    }

    @Test
    void aPassOverOneBucketLeavesTheOthers() throws Exception {
        lifecycle(rule("<Filter/>", "<Expiration><Days>1</Days></Expiration>"));
        put("old", ObjectVersion.NULL_VERSION, daysAgo(5));
        metadata.createBucket(new BucketRecord("other", NOW, "us-east-1"));
        metadata.putBucketConfig("other", BucketConfigurations.LIFECYCLE,
                rule("<Filter/>", "<Expiration><Days>1</Days></Expiration>").getBytes(StandardCharsets.UTF_8));
        putIn("other", "old", ObjectVersion.NULL_VERSION, daysAgo(5));

        assertThat(worker().runOnce("other", NOW)).isEqualTo(1);
        assertThat(worker().runOnce("missing", NOW)).isZero();

        assertThat(metadata.getObject(BUCKET, "old")).isPresent();
        assertThat(metadata.getObject("other", "old")).isEmpty();
    }

    // Fixtures

    private LifecycleWorker worker() {
        return new LifecycleWorker(metadata, new BucketConfigurations(metadata), reclaims::incrementAndGet,
                Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private static Instant daysAgo(int days) {
        return NOW.minus(Duration.ofDays(days));
    }

    private static String rule(String filter, String actions) {
        return "<LifecycleConfiguration xmlns=\"" + NAMESPACE + "\"><Rule><ID>rule</ID>" + filter
                + "<Status>Enabled</Status>" + actions + "</Rule></LifecycleConfiguration>";
    }

    private void lifecycle(String document) {
        try {
            metadata.putBucketConfig(BUCKET, BucketConfigurations.LIFECYCLE, document.getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private void versioning(String status) {
        try {
            metadata.putBucketConfig(BUCKET, BucketConfigurations.VERSIONING,
                    ("<VersioningConfiguration xmlns=\"" + NAMESPACE + "\"><Status>" + status
                            + "</Status></VersioningConfiguration>").getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private void put(String key, String versionId, Instant lastModified) {
        put(key, versionId, lastModified, Map.of(), null);
    }

    private void putIn(String bucket, String key, String versionId, Instant lastModified) {
        write(new ObjectVersion(bucket, key, versionId, lastModified, 5, "\"etag-" + (++versionCounter) + "\"",
                new ObjectContent.Inline("hello".getBytes(StandardCharsets.UTF_8)), Map.of(), Map.of(), null,
                List.of()));
    }

    private void put(String key, String versionId, Instant lastModified, Map<String, String> tags,
            @Nullable ObjectLock lock) {
        write(new ObjectVersion(BUCKET, key, versionId, lastModified, 5, "\"etag-" + (++versionCounter) + "\"",
                new ObjectContent.Inline("hello".getBytes(StandardCharsets.UTF_8)), Map.of(), Map.of(), null,
                List.of(), tags, lock, null, null));
    }

    private void marker(String key, String versionId, Instant lastModified) {
        write(new ObjectVersion(BUCKET, key, versionId, lastModified, 0, "\"\"", new ObjectContent.DeleteMarker(),
                Map.of(), Map.of(), null, List.of()));
    }

    private void write(ObjectVersion version) {
        try {
            metadata.putObject(version);
            versionsWritten++;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static MultipartUpload upload(String key, String uploadId, Instant initiated) {
        return new MultipartUpload(BUCKET, key, uploadId, initiated, Map.of(), Map.of(), null);
    }

    /** The versions of a key, newest first. */
    private List<ObjectVersion> versions(String key) {
        return metadata.listVersions(BUCKET, new VersionQuery(key, null, null, null, 1000)).versions().stream()
                .map(ListedVersion::version)
                .filter(version -> version.key().equals(key))
                .toList();
    }

    /** Every key of the bucket that has any version left. */
    private List<String> keysWithVersions() {
        return metadata.listVersions(BUCKET, new VersionQuery("", null, null, null, 1000)).versions().stream()
                .map(version -> version.version().key())
                .distinct()
                .toList();
    }
}
