package dev.hangar.metadata.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.ListedVersion;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.TickerType;

/**
 * What a listing costs in a large bucket, counted in RocksDB's own iterator tickers rather than
 * timed: a page costs one seek and one step per item wherever it starts, and a common prefix costs
 * one seek however many keys it holds.
 *
 * <p>One bucket of 200,000 keys, built once: 100,000 under {@code big/} and 100,000 at the top
 * ({@code k000000} ...), compacted into SST files as a long-running store has them.
 */
class RocksDbListingScaleTest {
    private static final int FOLDER_KEYS = 100_000;
    private static final int TOP_KEYS = 100_000;
    private static final int PAGE = 1_000;
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");

    @TempDir
    static Path directory;

    private static RocksDbMetadataStore store;

    @BeforeAll
    static void buildABucketOf200000Keys() throws Exception {
        store = RocksDbMetadataStore.openWithStatistics(new RocksDbConfig(directory, SyncPolicy.NONE, 32L << 20));
        store.createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        for (int i = 0; i < FOLDER_KEYS; i++) {
            store.putObject(object(folderKey(i)));
        }
        for (int i = 0; i < TOP_KEYS; i++) {
            store.putObject(object(topKey(i)));
        }
        store.flushAndCompact();
        assertThat(store.statistics().objects()).isEqualTo(FOLDER_KEYS + TOP_KEYS);
    }

    @AfterAll
    static void closeTheStore() {
        store.close();
    }

    @Test
    void aPageCostsTheSameWhereverItStarts() {
        for (String after : new String[] {null, "big/000000", "big/049999", "big/099500", "k000000", "k050000", "k098999"}) {
            Measured<ObjectListing> page = measure(() -> store.listObjects("photos", new ListQuery("", null, after, PAGE)));

            assertThat(page.result().entries()).hasSize(PAGE);
            assertThat(page.result().entries().getFirst().key()).isGreaterThan(after == null ? "" : after);
            report("listObjects after " + after, page.steps());
            // One seek to the start; one step per entry (the last step finds what follows the page,
            // or the end, to tell whether the page is truncated).
            assertThat(page.steps().seeks()).isEqualTo(1);
            assertThat(page.steps().nexts()).isEqualTo(PAGE);
            // And it reads the records of the page and the one after it, nothing else.
            assertThat(page.steps().bytesRead()).isLessThanOrEqualTo((PAGE + 1) * largestObjectRecord());
        }
    }

    @Test
    void aVersionPageCostsTheSameWhereverItStarts() {
        for (String keyMarker : new String[] {null, "big/049999", "k050000", "k098999"}) {
            Measured<VersionListing> page = measure(
                    () -> store.listVersions("photos", new VersionQuery("", null, keyMarker, null, PAGE)));

            assertThat(page.result().versions()).hasSize(PAGE);
            report("listVersions after " + keyMarker, page.steps());
            assertThat(page.steps().seeks()).isEqualTo(1);
            assertThat(page.steps().nexts()).isEqualTo(PAGE);
            assertThat(page.steps().bytesRead()).isLessThanOrEqualTo((PAGE + 1) * largestVersionRecord());
        }
    }

    @Test
    void aCommonPrefixOf100000KeysCostsOneSeek() {
        Measured<ObjectListing> page = measure(() -> store.listObjects("photos", new ListQuery("", "/", null, PAGE)));

        assertThat(page.result().commonPrefixes()).containsExactly("big/");
        assertThat(page.result().entries()).hasSize(PAGE - 1);
        assertThat(page.result().entries().getFirst().key()).isEqualTo(topKey(0));
        report("listObjects delimiter /", page.steps());
        // The start, then one seek past big/ instead of 100,000 steps through it: of big/, only
        // the first record is read.
        assertThat(page.steps().seeks()).isEqualTo(2);
        assertThat(page.steps().nexts()).isEqualTo(PAGE - 1);
        assertThat(page.steps().bytesRead()).isLessThanOrEqualTo((PAGE + 1) * largestObjectRecord());
    }

    @Test
    void aVersionListingRollsUpTheSameWay() {
        Measured<VersionListing> page = measure(
                () -> store.listVersions("photos", new VersionQuery("", "/", null, null, PAGE)));

        assertThat(page.result().commonPrefixes()).containsExactly("big/");
        assertThat(page.result().versions()).extracting(ListedVersion::latest).containsOnly(true).hasSize(PAGE - 1);
        report("listVersions delimiter /", page.steps());
        assertThat(page.steps().seeks()).isEqualTo(2);
        assertThat(page.steps().nexts()).isEqualTo(PAGE - 1);
        assertThat(page.steps().bytesRead()).isLessThanOrEqualTo((PAGE + 1) * largestVersionRecord());
    }

    @Test
    void resumingAfterACommonPrefixSkipsItWithTheFirstSeek() {
        Measured<ObjectListing> page = measure(() -> store.listObjects("photos", new ListQuery("", "/", "big/", PAGE)));

        assertThat(page.result().commonPrefixes()).isEmpty();
        assertThat(page.result().entries().getFirst().key()).isEqualTo(topKey(0));
        report("listObjects delimiter / after big/", page.steps());
        assertThat(page.steps().seeks()).isEqualTo(1);
        assertThat(page.steps().nexts()).isEqualTo(PAGE);
    }

    @Test
    void aListingThatRollsEverythingUpReadsNoKeyUnderThePrefix() {
        // Under big/, with delimiter 0: all 100,000 keys (big/000000 ...) roll up into big/0.
        Measured<ObjectListing> page = measure(() -> store.listObjects("photos", new ListQuery("big/", "0", null, PAGE)));

        assertThat(page.result().commonPrefixes()).containsExactly("big/0");
        assertThat(page.result().entries()).isEmpty();
        report("listObjects prefix big/ delimiter 0", page.steps());
        assertThat(page.steps().seeks()).isEqualTo(2);
        assertThat(page.steps().nexts()).isZero();
    }

    private static ObjectVersion object(String key) {
        byte[] data = key.getBytes(StandardCharsets.UTF_8);
        return new ObjectVersion(
                "photos", key, ObjectVersion.NULL_VERSION, NOW, data.length, "\"etag\"", new ObjectContent.Inline(data),
                Map.of(), Map.of(), null, List.of());
    }

    /** Key and value bytes of the largest objects-family record (the keys under big/ are longest). */
    private static long largestObjectRecord() {
        String key = folderKey(0);
        return Keys.object("photos", key).length + RecordCodec.encodeObject(object(key)).length;
    }

    private static long largestVersionRecord() {
        String key = folderKey(0);
        return Keys.version("photos", key, 0).length + RecordCodec.encodeObject(object(key)).length;
    }

    private static String folderKey(int i) {
        return "big/%06d".formatted(i);
    }

    private static String topKey(int i) {
        return "k%06d".formatted(i);
    }

    /**
     * RocksDB's iterator tickers over one call: user-level seeks and nexts (what the store asked
     * for), and the bytes of keys and values the iterators returned.
     */
    record Steps(long seeks, long nexts, long bytesRead) {}

    record Measured<T>(T result, Steps steps) {}

    private static <T> Measured<T> measure(Supplier<T> call) {
        long seeks = store.ticker(TickerType.NUMBER_DB_SEEK);
        long nexts = store.ticker(TickerType.NUMBER_DB_NEXT);
        long bytes = store.ticker(TickerType.ITER_BYTES_READ);
        T result = call.get();
        return new Measured<>(result, new Steps(
                store.ticker(TickerType.NUMBER_DB_SEEK) - seeks,
                store.ticker(TickerType.NUMBER_DB_NEXT) - nexts,
                store.ticker(TickerType.ITER_BYTES_READ) - bytes));
    }

    private static void report(String what, Steps steps) {
        System.out.printf("%-40s %s%n", what, steps);
    }
}
