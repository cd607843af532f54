package dev.hangar.cluster.meta;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.RoundTrips;
import dev.hangar.cluster.table.TableConfig;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.VersionQuery;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sequential inter-node rounds of the metadata of each kind of object request, counted as the
 * S3 layer counts them (a {@link RoundTrips.Tally} bound to the request), with the node's settings
 * cache warm: in a bucket that never had versioning configured, and in a versioned one whose key
 * already has many versions (a versioned PUT reads the key's newest version only, never its
 * history).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RoundsPerOperationTest {
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");

    @TempDir
    Path dir;

    private MetaCluster cluster;
    private ReplicatedMetadataStore store;

    @BeforeEach
    void startCluster() throws InterruptedException {
        cluster = new MetaCluster(dir, TableConfig.consistent(ReplicatedMetadataStore.TABLE), "a", "b", "c");
        store = cluster.node("a").store();
    }

    @AfterEach
    void stopCluster() {
        cluster.close();
    }

    private static ObjectVersion version(String bucket, String key, String versionId, String text) {
        byte[] data = text.getBytes(UTF_8);
        return new ObjectVersion(bucket, key, versionId, NOW, data.length, "\"" + text + "\"",
                new ObjectContent.Inline(data), Map.of(), Map.of(), null, List.of());
    }

    private interface Request {
        Object run() throws Exception;
    }

    private static int rounds(Request request) throws Exception {
        RoundTrips.Tally tally = new RoundTrips.Tally();
        try (RoundTrips.Binding counted = RoundTrips.bind(tally)) {
            request.run();
        }
        return tally.metadata();
    }

    @Test
    void neverVersionedBucketTakesOneRoundPerRequestAndOneMoreToCheckAPutsBucket() throws Exception {
        store.createBucket(new BucketRecord("plain", NOW, "us-east-1"));
        // Warm the settings cache, as on any running node.
        store.getBucket("plain");
        store.getBucketConfig("plain", "versioning");
        Map<String, Integer> measured = new LinkedHashMap<>();
        measured.put("PUT new key", rounds(() -> store.putObject(version("plain", "k", "null", "one"))));
        measured.put("PUT overwrite", rounds(() -> store.putObject(version("plain", "k", "null", "two"))));
        measured.put("GET", rounds(() -> store.getObject("plain", "k")));
        measured.put("GET versionId=null", rounds(() -> store.getVersion("plain", "k", "null")));
        measured.put("DELETE", rounds(() -> store.deleteObject("plain", "k")));
        measured.put("DELETE missing key", rounds(() -> store.deleteObject("plain", "k")));
        System.out.println("rounds, never-versioned bucket: " + measured);

        // A PUT reads the bucket back after its write (BucketDeletion): one round more than the rest.
        assertThat(measured).as("rounds of %s", measured).containsExactlyInAnyOrderEntriesOf(Map.of("PUT new key", 2,
                "PUT overwrite", 2, "GET", 1, "GET versionId=null", 1, "DELETE", 1, "DELETE missing key", 1));
    }

    /**
     * A never-versioned bucket with {@code deleted} keys k000, k001, … put and deleted (each
     * DeleteObject writes the key's null slot back dead: an entry until purged), then {@code live}
     * keys put, and the settings cache warm.
     */
    private void bucketOfDeletedKeys(String bucket, int deleted, String... live) throws Exception {
        store.createBucket(new BucketRecord(bucket, NOW, "us-east-1"));
        for (int i = 0; i < deleted; i++) {
            store.putObject(version(bucket, "k%03d".formatted(i), "null", "x"));
            store.deleteObject(bucket, "k%03d".formatted(i));
        }
        for (String key : live) {
            store.putObject(version(bucket, key, "null", key));
        }
        store.getBucket(bucket);
        store.getBucketConfig(bucket, "versioning");
    }

    @Test
    void listingPassesDeletedKeysInOneRound() throws Exception {
        bucketOfDeletedKeys("plain", 250);
        ObjectListing[] listing = new ObjectListing[1];

        // Each replica's page holds up to 101 live entries and 1,010 in all (it stopped at 101 before).
        int rounds = rounds(() -> listing[0] = store.listObjects("plain", new ListQuery("", null, null, 100)));

        assertThat(listing[0].entries()).isEmpty();
        assertThat(listing[0].truncated()).isFalse();
        assertThat(rounds).isEqualTo(1);
    }

    @Test
    void liveKeysAmongDeletedOnesArePagedAsBefore() throws Exception {
        bucketOfDeletedKeys("plain", 300, "k150-live", "k299-live");
        ObjectListing[] listing = new ObjectListing[2];

        // maxKeys 1: pages of 2 live entries, capped at 20 entries in all (before: 2 entries).
        int firstRounds = rounds(() -> listing[0] = store.listObjects("plain", new ListQuery("", null, null, 1)));
        int secondRounds = rounds(() -> listing[1] = store.listObjects("plain",
                new ListQuery("", null, listing[0].nextMarker(), 1)));

        assertThat(listing[0].entries()).extracting(ObjectVersion::key).containsExactly("k150-live");
        assertThat(listing[0].truncated()).isTrue();
        assertThat(listing[0].nextMarker()).isEqualTo("k150-live");
        assertThat(listing[1].entries()).extracting(ObjectVersion::key).containsExactly("k299-live");
        assertThat(listing[1].truncated()).isFalse();
        System.out.println("rounds of two listings past 300 deleted keys: " + firstRounds + ", " + secondRounds);
        // 302 entries at up to 20 a round, where it took 2 a round (about 150 rounds).
        assertThat(firstRounds + secondRounds).isLessThanOrEqualTo(30);
    }

    @Test
    void versionedBucketPaysOneReadRoundBeforeWritesWhateverTheHistory() throws Exception {
        store.createBucket(new BucketRecord("versioned", NOW, "us-east-1"));
        store.putBucketConfig("versioned", "versioning", "<Status>Enabled</Status>".getBytes(UTF_8));
        for (int i = 0; i < 300; i++) {
            store.putObject(versionUnchecked("versioned", "k", "v" + i));
        }
        store.getBucket("versioned");
        store.getBucketConfig("versioned", "versioning");
        Map<String, Integer> measured = new LinkedHashMap<>();
        measured.put("PUT", rounds(() -> store.putObject(versionUnchecked("versioned", "k", "new"))));
        measured.put("GET", rounds(() -> store.getObject("versioned", "k")));
        measured.put("GET versionId", rounds(() -> store.getVersion("versioned", "k", "v7")));
        measured.put("DELETE (marker)", rounds(() -> store.putObject(new ObjectVersion("versioned", "k", "marker", NOW,
                0, "\"\"", new ObjectContent.DeleteMarker(), Map.of(), Map.of(), null, List.of()))));
        measured.put("DELETE versionId", rounds(() -> store.deleteVersion("versioned", "k", "v7")));
        measured.put("ListObjectVersions page", rounds(() -> store.listVersions("versioned",
                new VersionQuery("", null, null, null, 100))));
        System.out.println("rounds, versioned bucket, key with 300 versions: " + measured);

        // A PUT (a marker too) reads the key's newest version, writes, then reads its bucket back (BucketDeletion).
        assertThat(measured.get("PUT")).isEqualTo(3);
        assertThat(measured.get("GET")).isEqualTo(1);
        assertThat(measured.get("GET versionId")).isEqualTo(2);
        assertThat(measured.get("DELETE (marker)")).isEqualTo(3);
        // Removing a version reads them all: its blocks are freed only if no other version references them.
        assertThat(measured.get("DELETE versionId")).isEqualTo(2);
    }

    private static ObjectVersion versionUnchecked(String bucket, String key, String versionId) {
        return version(bucket, key, versionId, versionId);
    }
}
