package dev.hangar.metadata.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.ListedVersion;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.StoreStatistics;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.TableProperties;
import org.rocksdb.TickerType;
import org.rocksdb.UInt64AddOperator;

/**
 * The RocksDB options of {@link Tuning} take effect, and the prefix seeks they allow return what
 * ordinary seeks would, in memtables and SST files alike.
 */
class RocksDbTuningTest {
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    private static final Comparator<String> UTF8_ORDER =
            (first, second) -> Arrays.compareUnsigned(utf8(first), utf8(second));

    @TempDir
    Path directory;

    private RocksDbConfig config() {
        return new RocksDbConfig(directory, SyncPolicy.NONE, 8L << 20);
    }

    @Test
    void compactedFilesAreLz4CompressedAndFilteredAsEachFamilyNeeds() throws Exception {
        try (RocksDbMetadataStore store = RocksDbMetadataStore.open(config())) {
            store.createBucket(bucket("photos"));
            for (int i = 0; i < 5_000; i++) {
                store.putObject(inline("photos", "2026/03/04/photo-%05d.jpg".formatted(i), "v"));
            }
            store.queueGarbage(List.of(BlockId.random()));
            store.flushAndCompact();
        }

        RawDatabase.read(directory, db -> {
            // Compacted below level 0: LZ4, which this RocksDB build has (it would refuse to open
            // with a compression it lacks), and which made the files smaller than their contents.
            for (Family family : List.of(Family.OBJECTS, Family.VERSIONS)) {
                assertThat(db.tables(family)).as("%s", family).isNotEmpty().allSatisfy(table -> {
                    // RocksDB 11 spells it with the compression manager and LZ4's type code, 4.
                    assertThat(table.getCompressionName()).isIn("LZ4", "BuiltinV2;04;");
                    assertThat(table.getDataSize()).isLessThan(table.getRawKeySize() + table.getRawValueSize());
                });
            }
            assertThat(db.tables(Family.OBJECTS)).extracting(TableProperties::getFilterPolicyName)
                    .allSatisfy(name -> assertThat(name).containsIgnoringCase("bloom"));
            assertThat(db.tables(Family.VERSIONS)).allSatisfy(table -> {
                assertThat(table.getPrefixExtractorName()).isEqualTo("rocksdb.CappedPrefix." + Tuning.VERSIONS_PREFIX_BYTES);
                assertThat(table.getFilterPolicyName()).containsIgnoringCase("bloom");
            });
            assertThat(db.tables(Family.GARBAGE)).isNotEmpty().extracting(TableProperties::getFilterSize).containsOnly(0L);
        });
    }

    @Test
    void aWriteOfANewKeySkipsSstFilesThroughThePrefixFilter() throws Exception {
        try (RocksDbMetadataStore store = RocksDbMetadataStore.openWithStatistics(config())) {
            store.createBucket(bucket("photos"));
            // Even numbers: the new keys below (odd) fall inside the key range of the SST file, so
            // only its filter, not its key range, can tell that they are not there.
            for (int i = 0; i < 20_000; i++) {
                store.putObject(inline("photos", "%09d".formatted(2 * i), "v"));
            }
            store.flushAndCompact();

            long filtered = seeksFiltered(store);
            long dataReads = seeksThatReadData(store);
            for (int i = 0; i < 1_000; i++) {
                // "photos 0 000000001 0" is 17 bytes, longer than the prefix: a prefix seek.
                store.putObject(inline("photos", "%09d".formatted(2 * i + 1), "v"));
            }
            long newKeyFiltered = seeksFiltered(store) - filtered;
            long newKeyDataReads = seeksThatReadData(store) - dataReads;
            System.out.printf("1,000 writes of new keys: %d SST seeks skipped by the prefix filter, %d read a block%n",
                    newKeyFiltered, newKeyDataReads);
            // About 1% false positives: nearly every write skipped the file without reading a block.
            assertThat(newKeyFiltered).isGreaterThanOrEqualTo(970);
            assertThat(newKeyFiltered + newKeyDataReads).isEqualTo(1_000);

            filtered = seeksFiltered(store);
            dataReads = seeksThatReadData(store);
            for (int i = 0; i < 100; i++) {
                // "photos 0 0000005 0" is 15 bytes, shorter than the prefix: an ordinary seek.
                store.putObject(inline("photos", "%07d".formatted(i), "v"));
            }
            assertThat(seeksFiltered(store) - filtered).isZero();
            assertThat(seeksThatReadData(store) - dataReads).isEqualTo(100);
            assertThat(store.getObject("photos", "0000007")).contains(inline("photos", "0000007", "v"));
        }
    }

    @Test
    void versionsInFilesWrittenBeforeThePrefixExtractorAreStillFound() throws Exception {
        List<String> keys = new ArrayList<>();
        try (RocksDbMetadataStore store = RocksDbMetadataStore.open(config())) {
            store.createBucket(bucket("photos"));
            for (int i = 0; i < 300; i++) {
                // Long and short keys: prefix seeks and ordinary ones.
                String key = i % 3 == 0 ? "k" + i : "2026/03/04/photo-%05d.jpg".formatted(i);
                keys.add(key);
                store.putObject(inline("photos", key, "one").withVersionId("v1"));
                store.putObject(inline("photos", key, "two").withVersionId("v2"));
            }
        }
        // As the previous release wrote its files: whole-key bloom filters, no prefix extractor.
        rewriteAllFilesWithoutPrefixExtractor();
        RawDatabase.read(directory, db -> assertThat(db.tables(Family.VERSIONS)).isNotEmpty()
                .allSatisfy(table -> assertThat(table.getPrefixExtractorName()).isIn("", "nullptr")));

        try (RocksDbMetadataStore store = RocksDbMetadataStore.open(config())) {
            for (String key : keys) {
                assertThat(store.getVersion("photos", key, "v1")).as(key).contains(inline("photos", key, "one").withVersionId("v1"));
                // The write reads the current version (v2) to take it out of the listing.
                store.putObject(marker("photos", key, "m3"));
                assertThat(store.getObject("photos", key)).as(key).contains(marker("photos", key, "m3"));
                assertThat(store.deleteVersion("photos", key, "v2")).as(key).isPresent();
            }
            assertThat(store.listObjects("photos", new ListQuery("", null, null, 1_000)).entries()).isEmpty();
            assertThat(store.statistics()).isEqualTo(new StoreStatistics(300, 900, 300, 1, 0));
        }
    }

    /** Opens the store's folder with the previous release's options and compacts every family. */
    private void rewriteAllFilesWithoutPrefixExtractor() throws Exception {
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (BloomFilter bloom = new BloomFilter(10);
                UInt64AddOperator add = new UInt64AddOperator();
                ColumnFamilyOptions plain = new ColumnFamilyOptions()
                        .setTableFormatConfig(new BlockBasedTableConfig().setFilterPolicy(bloom));
                ColumnFamilyOptions counters = new ColumnFamilyOptions().setMergeOperator(add);
                DBOptions options = new DBOptions()) {
            List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
            descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, plain));
            for (Family family : Family.values()) {
                descriptors.add(new ColumnFamilyDescriptor(
                        family.nameBytes(), family == Family.COUNTERS ? counters : plain));
            }
            try (RocksDB db =
                    RocksDB.open(options, directory.toString(), descriptors, handles)) {
                for (ColumnFamilyHandle handle : handles) {
                    db.compactRange(handle);
                }
            } finally {
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
    }

    private static long seeksFiltered(RocksDbMetadataStore store) {
        return store.ticker(TickerType.LAST_LEVEL_SEEK_FILTERED) + store.ticker(TickerType.NON_LAST_LEVEL_SEEK_FILTERED);
    }

    private static long seeksThatReadData(RocksDbMetadataStore store) {
        return store.ticker(TickerType.LAST_LEVEL_SEEK_DATA) + store.ticker(TickerType.NON_LAST_LEVEL_SEEK_DATA);
    }

    /**
     * Random writes and deletes of versions of keys around the prefix length (some shorter, some
     * longer, many sharing their first bytes), with the store compacted now and then so that
     * versions are spread over memtables and SST files; after each round every read agrees with a
     * plain model.
     */
    @Test
    void versionsReadThroughPrefixSeeksMatchAModel() throws Exception {
        Random random = new Random(20260304);
        List<String> keys = new ArrayList<>();
        // "b 0 key 0" is at least 16 bytes from keys of 13 characters on.
        for (int length = 9; length <= 17; length++) {
            for (int i = 0; i < 6; i++) {
                StringBuilder key = new StringBuilder();
                for (int c = 0; c < length; c++) {
                    key.append(random.nextInt(4) == 0 ? 'b' : 'a');
                }
                keys.add(key.toString());
            }
        }
        Map<String, List<ObjectVersion>> model = new LinkedHashMap<>();
        int nextId = 0;
        try (RocksDbMetadataStore store = RocksDbMetadataStore.open(config())) {
            store.createBucket(bucket("b"));
            for (int round = 0; round < 12; round++) {
                for (int op = 0; op < 150; op++) {
                    String key = keys.get(random.nextInt(keys.size()));
                    List<ObjectVersion> versions = model.computeIfAbsent(key, k -> new ArrayList<>());
                    int choice = random.nextInt(10);
                    if (choice < 4) {
                        ObjectVersion version = random.nextBoolean()
                                ? inline("b", key, "x".repeat(random.nextInt(20))).withVersionId("v" + nextId++)
                                : blocks("b", key).withVersionId("v" + nextId++);
                        store.putObject(version);
                        versions.addFirst(version);
                    } else if (choice < 6) {
                        ObjectVersion version = random.nextBoolean() ? inline("b", key, "null " + op) : marker("b", key, "null");
                        Optional<ObjectVersion> replaced = store.putObject(version);
                        Optional<ObjectVersion> expected = removeNewest(versions, ObjectVersion.NULL_VERSION);
                        assertThat(replaced).isEqualTo(expected);
                        versions.addFirst(version);
                    } else if (choice < 7) {
                        ObjectVersion version = marker("b", key, "m" + nextId++);
                        store.putObject(version);
                        versions.addFirst(version);
                    } else {
                        String id = versions.isEmpty() || random.nextInt(5) == 0
                                ? "absent"
                                : versions.get(random.nextInt(versions.size())).versionId();
                        assertThat(store.deleteVersion("b", key, id)).isEqualTo(removeNewest(versions, id));
                    }
                }
                if (round % 3 != 2) {
                    store.flushAndCompact();
                }
                checkAgainst(store, model);
            }
        }
    }

    private static void checkAgainst(RocksDbMetadataStore store, Map<String, List<ObjectVersion>> model) {
        List<String> expectedVersions = new ArrayList<>();
        List<String> expectedObjects = new ArrayList<>();
        long objects = 0;
        long bytes = 0;
        long markers = 0;
        for (Map.Entry<String, List<ObjectVersion>> entry : model.entrySet().stream()
                .sorted(Map.Entry.comparingByKey(UTF8_ORDER)).toList()) {
            String key = entry.getKey();
            List<ObjectVersion> versions = entry.getValue();
            assertThat(store.getObject("b", key)).as(key).isEqualTo(versions.stream().findFirst());
            for (ObjectVersion version : versions) {
                assertThat(store.getVersion("b", key, version.versionId())).contains(version);
                expectedVersions.add(key + " " + version.versionId());
                if (version.isDeleteMarker()) {
                    markers++;
                } else {
                    objects++;
                    bytes += version.size();
                }
            }
            if (!versions.isEmpty() && !versions.getFirst().isDeleteMarker()) {
                expectedObjects.add(key);
            }
        }
        VersionListing listing = store.listVersions("b", new VersionQuery("", null, null, null, 10_000));
        assertThat(listing.versions())
                .extracting(listed -> listed.version().key() + " " + listed.version().versionId())
                .containsExactlyElementsOf(expectedVersions);
        assertThat(listing.versions()).filteredOn(ListedVersion::latest).hasSize(
                (int) model.values().stream().filter(versions -> !versions.isEmpty()).count());
        ObjectListing objectListing = store.listObjects("b", new ListQuery("", null, null, 10_000));
        assertThat(objectListing.entries()).extracting(ObjectVersion::key).containsExactlyElementsOf(expectedObjects);
        assertThat(store.statistics()).isEqualTo(new StoreStatistics(objects, bytes, markers, 1, 0));
    }

    /** Removes the newest version with this id, as the store does; what was removed. */
    private static Optional<ObjectVersion> removeNewest(List<ObjectVersion> versions, String versionId) {
        for (int i = 0; i < versions.size(); i++) {
            if (versions.get(i).versionId().equals(versionId)) {
                return Optional.of(versions.remove(i));
            }
        }
        return Optional.empty();
    }

    private static BucketRecord bucket(String name) {
        return new BucketRecord(name, NOW, "us-east-1");
    }

    private static ObjectVersion inline(String bucket, String key, String text) {
        byte[] data = utf8(text);
        return new ObjectVersion(
                bucket, key, ObjectVersion.NULL_VERSION, NOW, data.length, "\"etag\"", new ObjectContent.Inline(data),
                Map.of(), Map.of(), null, List.of());
    }

    private static ObjectVersion blocks(String bucket, String key) {
        BlockRef block = new BlockRef(BlockId.random(), 1 << 20, 7);
        return new ObjectVersion(
                bucket, key, ObjectVersion.NULL_VERSION, NOW, block.size(), "\"etag\"",
                new ObjectContent.Blocks(List.of(block)), Map.of(), Map.of(), null, List.of());
    }

    private static ObjectVersion marker(String bucket, String key, String versionId) {
        return new ObjectVersion(
                bucket, key, versionId, NOW, 0, "\"\"", new ObjectContent.DeleteMarker(), Map.of(), Map.of(), null,
                List.of());
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
