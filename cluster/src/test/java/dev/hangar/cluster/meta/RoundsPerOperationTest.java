package dev.hangar.cluster.meta;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.RoundTrips;
import dev.hangar.cluster.table.TableConfig;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ObjectContent;
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
    void neverVersionedBucketTakesOneRoundPerRequest() throws Exception {
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

        assertThat(measured.values()).as("rounds of %s", measured).containsOnly(1);
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

        assertThat(measured.get("PUT")).isEqualTo(2);
        assertThat(measured.get("GET")).isEqualTo(1);
        assertThat(measured.get("GET versionId")).isEqualTo(2);
        assertThat(measured.get("DELETE (marker)")).isEqualTo(2);
        // Removing a version reads them all: its blocks are freed only if no other version references them.
        assertThat(measured.get("DELETE versionId")).isEqualTo(2);
    }

    private static ObjectVersion versionUnchecked(String bucket, String key, String versionId) {
        return version(bucket, key, versionId, versionId);
    }
}
