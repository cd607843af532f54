package dev.hangar.cluster.meta;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.table.TableConfig;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ListedVersion;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many versions of one key: written concurrently through every coordinator, none is lost; written
 * by the ten thousand, a PUT costs what the first did and the key stays writable (the versions of a
 * key are entries of their own: a write neither reads nor rewrites the key's history).
 */
class ManyVersionsTest {
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    private static final List<String> NODES = List.of("a", "b", "c");

    @TempDir
    Path dir;

    private MetaCluster cluster;

    @BeforeEach
    void startCluster() throws Exception {
        cluster = new MetaCluster(dir, TableConfig.consistent(ReplicatedMetadataStore.TABLE), "a", "b", "c");
        store("a").createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        store("a").putBucketConfig("photos", "versioning", "<Status>Enabled</Status>".getBytes(UTF_8));
    }

    @AfterEach
    void stopCluster() {
        cluster.close();
    }

    private ReplicatedMetadataStore store(String node) {
        return cluster.node(node).store();
    }

    private static ObjectVersion version(String versionId) {
        return version("hot", versionId);
    }

    private static ObjectVersion version(String key, String versionId) {
        byte[] data = ("body of " + versionId).getBytes(UTF_8);
        return new ObjectVersion("photos", key, versionId, NOW, data.length, "\"" + versionId + "\"",
                new ObjectContent.Inline(data), Map.of(), Map.of(), null, List.of());
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void twoHundredVersionsWrittenConcurrentlyThroughThreeCoordinatorsAreAllListedThroughEveryNode() throws Exception {
        int writersPerNode = 4;
        int versions = 200;
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> writers = new ArrayList<>();
            for (int writer = 0; writer < NODES.size() * writersPerNode; writer++) {
                ReplicatedMetadataStore store = store(NODES.get(writer % NODES.size()));
                int first = writer;
                writers.add(executor.submit(() -> {
                    for (int i = first; i < versions; i += NODES.size() * writersPerNode) {
                        store.putObject(version("v%03d".formatted(i)));
                    }
                    return null;
                }));
            }
            for (Future<?> writer : writers) {
                writer.get();
            }
        }

        for (String node : NODES) {
            VersionListing listing = store(node).listVersions("photos", new VersionQuery("", null, null, null, 1000));
            assertThat(listing.versions()).as("versions listed through %s", node).hasSize(versions);
            assertThat(listing.versions()).filteredOn(ListedVersion::latest).hasSize(1);
            assertThat(store(node).getObject("photos", "hot")).contains(listing.versions().getFirst().version());
            Set<String> ids = new HashSet<>();
            for (ListedVersion listed : listing.versions()) {
                ObjectVersion version = listed.version();
                ids.add(version.versionId());
                assertThat(version).as("version %s through %s", version.versionId(), node)
                        .isEqualTo(version(version.versionId()));
            }
            assertThat(ids).hasSize(versions);
        }
        // Page by page, each page through the next node: every version once, in one order.
        List<String> paged = new ArrayList<>();
        String keyMarker = null;
        String versionIdMarker = null;
        VersionListing page;
        int pages = 0;
        do {
            page = store(NODES.get(pages++ % NODES.size()))
                    .listVersions("photos", new VersionQuery("", null, keyMarker, versionIdMarker, 37));
            page.versions().forEach(listed -> paged.add(listed.version().versionId()));
            keyMarker = page.nextKeyMarker();
            versionIdMarker = page.nextVersionIdMarker();
        } while (page.truncated());
        assertThat(paged).containsExactlyElementsOf(store("a")
                .listVersions("photos", new VersionQuery("", null, null, null, 1000)).versions().stream()
                .map(listed -> listed.version().versionId()).toList());
    }

    /**
     * 20,000 versions of one key, one PUT after the other: the median of the last 1,000 PUTs is
     * not more than 1.5 times the median of the first 1,000, and the key takes more afterwards.
     * (Before the versions were entries of their own, each PUT rewrote the whole stack: 29 ms at
     * first, 343 ms at 3,200 versions, and none at all past the 16 MiB RPC frame.)
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void twentyThousandVersionsOfOneKeyCostNoMorePerPutThanTheFirst() throws Exception {
        int total = 20_000;
        int sample = 1_000;
        ReplicatedMetadataStore store = store("a");
        // Warm up the JIT on another key first, so that the first PUTs measured are not the slowest by that alone.
        for (int i = 0; i < 3_000; i++) {
            store.putObject(version("warm-up", "w%05d".formatted(i)));
        }
        long[] nanos = new long[total];
        long started = System.nanoTime();
        for (int i = 0; i < total; i++) {
            long before = System.nanoTime();
            store.putObject(version("v%05d".formatted(i)));
            nanos[i] = System.nanoTime() - before;
        }
        long elapsed = System.nanoTime() - started;
        double firstMedian = median(Arrays.copyOfRange(nanos, 0, sample));
        double lastMedian = median(Arrays.copyOfRange(nanos, total - sample, total));
        System.out.printf("%d versioned PUTs of one key in %.1f s: median of the first %d %.3f ms, of the last %d %.3f ms%n",
                total, elapsed / 1e9, sample, firstMedian / 1e6, sample, lastMedian / 1e6);

        assertThat(lastMedian).as("median of the last %d PUTs against the first %d's", sample, sample)
                .isLessThanOrEqualTo(1.5 * firstMedian);
        ObjectVersion more = version("one-more");
        store("b").putObject(more);
        for (String node : NODES) {
            assertThat(store(node).getObject("photos", "hot")).contains(more);
            assertThat(store(node).getVersion("photos", "hot", "v00000")).contains(version("v00000"));
        }
        VersionListing newest = store("c").listVersions("photos", new VersionQuery("", null, null, null, 3));
        assertThat(newest.versions()).extracting(listed -> listed.version().versionId())
                .containsExactly("one-more", "v19999", "v19998");
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2.0;
    }
}
