package dev.hangar.metadata.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.metadata.AbstractMetadataStoreContractTest;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketNotEmptyException;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.MetadataStorageException;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.MetadataStores;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.StoreStatistics;
import dev.hangar.metadata.VersionQuery;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

class RocksDbMetadataStoreTest extends AbstractMetadataStoreContractTest {
    @TempDir
    Path directory;

    @Override
    protected MetadataStore openStore() {
        return MetadataStores.rocksDb(new RocksDbConfig(directory, SyncPolicy.NONE, 8L << 20));
    }

    @Test
    void everyRecordKindHasItsColumnFamily() throws RocksDBException {
        store.close();

        try (Options options = new Options()) {
            assertThat(RocksDB.listColumnFamilies(options, directory.toString()))
                    .extracting(name -> new String(name, UTF_8))
                    .containsExactlyInAnyOrder(
                            "default", "buckets", "objects", "versions", "uploads", "parts", "garbage",
                            "access_keys", "bucket_configs", "meta", "counters", "service_configs");
        }
    }

    @Test
    void recordsAreKeyedAsDocumentedAndStartWithTheFormatVersion() throws Exception {
        store.createBucket(bucket("photos"));
        store.putObject(inline("photos", "cat.jpg", "meow"));
        MultipartUpload upload = upload("photos", "big.iso", "u1");
        store.createUpload(upload);
        Part part = part("u1", 3, newBlock());
        store.putPart(upload, part);
        store.deleteObject("photos", "cat.jpg");
        store.putObject(inline("photos", "dog.jpg", "woof"));
        store.putBucketConfig("photos", "cors", new byte[] {9});
        store.putAccessKey(new AccessKey("GK1", "secret", NOW));
        store.putServiceConfig("kms-key", "key-1", new byte[] {8});
        store.close();

        readRaw(db -> {
            assertThat(db.get(Family.BUCKETS, "photos".getBytes(UTF_8))[0]).isEqualTo((byte) 1);
            assertThat(db.get(Family.OBJECTS, "photos\0dog.jpg".getBytes(UTF_8))[0]).isEqualTo((byte) 2);
            assertThat(db.get(Family.UPLOADS, "photos\0big.iso\0u1".getBytes(UTF_8))[0]).isEqualTo((byte) 1);
            assertThat(db.get(Family.PARTS, new byte[] {'u', '1', 0, 0, 0, 0, 3})[0]).isEqualTo((byte) 1);
            assertThat(db.get(Family.BUCKET_CONFIGS, "photos\0cors".getBytes(UTF_8))).containsExactly(1, 9);
            assertThat(db.get(Family.ACCESS_KEYS, "GK1".getBytes(UTF_8))[0]).isEqualTo((byte) 2);
            assertThat(db.get(Family.SERVICE_CONFIGS, "kms-key\0key-1".getBytes(UTF_8))).containsExactly(1, 8);
            assertThat(Keys.decodeLong(db.get(Family.META, "layout".getBytes(UTF_8)))).isEqualTo(3);
            // Counters: 8-byte little-endian sums (cat.jpg went, dog.jpg stayed; the upload is open).
            assertThat(Counter.decode(db.get(Family.COUNTERS, "objects".getBytes(UTF_8)))).isEqualTo(1);
            assertThat(Counter.decode(db.get(Family.COUNTERS, "bytes".getBytes(UTF_8)))).isEqualTo(4);
            assertThat(Counter.decode(db.get(Family.COUNTERS, "buckets".getBytes(UTF_8)))).isEqualTo(1);
            assertThat(Counter.decode(db.get(Family.COUNTERS, "uploads".getBytes(UTF_8)))).isEqualTo(1);
            // cat.jpg left no version behind; dog.jpg has one, equal to its objects-family copy.
            List<byte[]> versionKeys = db.keys(Family.VERSIONS);
            assertThat(versionKeys).hasSize(1);
            byte[] versionKey = versionKeys.getFirst();
            assertThat(Arrays.copyOf(versionKey, versionKey.length - 8)).isEqualTo("photos\0dog.jpg\0".getBytes(UTF_8));
            assertThat(db.get(Family.VERSIONS, versionKey))
                    .isEqualTo(db.get(Family.OBJECTS, "photos\0dog.jpg".getBytes(UTF_8)));
        });
    }

    @Test
    void versionsOfAKeySortNewestFirstAndDeleteMarkersStayOutOfObjects() throws Exception {
        store.createBucket(bucket("photos"));
        store.putObject(version("photos", "cat.jpg", "v1", newBlock()));
        store.putObject(version("photos", "cat.jpg", "v2", newBlock()));
        store.putObject(marker("photos", "cat.jpg", "m3"));
        store.close();

        readRaw(db -> {
            List<byte[]> versionKeys = db.keys(Family.VERSIONS);
            assertThat(versionKeys).hasSize(3);
            List<String> ids = versionKeys.stream()
                    .map(key -> RecordCodec.peekVersionId(db.get(Family.VERSIONS, key)))
                    .toList();
            assertThat(ids).containsExactly("m3", "v2", "v1");
            assertThat(Keys.versionSequence(versionKeys.get(0))).isGreaterThan(Keys.versionSequence(versionKeys.get(1)));
            assertThat(Keys.versionSequence(versionKeys.get(1))).isGreaterThan(Keys.versionSequence(versionKeys.get(2)));
            assertThat(db.keys(Family.OBJECTS)).isEmpty();
        });
    }

    @Test
    void concurrentWritersShareSyncsOfTheLogWithSyncAlways(@TempDir Path syncDirectory) throws Exception {
        RocksDbConfig config = new RocksDbConfig(syncDirectory, SyncPolicy.ALWAYS, 8L << 20);
        try (MetadataStore store = MetadataStores.rocksDb(config)) {
            store.createBucket(bucket("photos"));
            var before = store.writeLog();
            java.util.concurrent.ExecutorService writers = java.util.concurrent.Executors.newFixedThreadPool(16);
            try {
                List<java.util.concurrent.Future<?>> futures = new java.util.ArrayList<>();
                for (int i = 0; i < 800; i++) {
                    String key = "k" + i;
                    futures.add(writers.submit(() -> store.putObject(inline("photos", key, "x"))));
                }
                for (var future : futures) {
                    future.get();
                }
            } finally {
                writers.shutdown();
            }
            var after = store.writeLog();

            long writes = after.groupedWrites() - before.groupedWrites();
            long groups = after.groups() - before.groups();
            assertThat(writes).isGreaterThanOrEqualTo(800);
            // Every write group syncs the log once; sixteen writers leave room to share.
            assertThat(after.syncs() - before.syncs()).isPositive().isLessThanOrEqualTo(groups);
            assertThat(groups).isLessThan(writes);
        }
    }

    @Test
    void versionsStayInWriteOrderWhenTheClockStepsBack(@TempDir Path clockDirectory) throws Exception {
        RocksDbConfig config = new RocksDbConfig(clockDirectory, SyncPolicy.NONE, 8L << 20);
        Instant late = Instant.parse("2030-01-01T00:00:00Z");
        try (MetadataStore first = RocksDbMetadataStore.open(config, InstantSource.fixed(late))) {
            first.createBucket(bucket("photos"));
            first.putObject(version("photos", "k", "v1", newBlock()));
            first.putObject(version("photos", "k", "v2", newBlock()));
        }
        // A day earlier, and then a clock that does not move at all.
        try (MetadataStore second = RocksDbMetadataStore.open(config, InstantSource.fixed(late.minusSeconds(86_400)))) {
            second.putObject(version("photos", "k", "v3", newBlock()));
            second.putObject(version("photos", "other", "o1", newBlock()));
            second.putObject(version("photos", "k", "v4", newBlock()));

            assertThat(second.getObject("photos", "k").orElseThrow().versionId()).isEqualTo("v4");
            assertThat(second.listVersions("photos", new VersionQuery("k", null, null, null, 10)).versions())
                    .extracting(listed -> listed.version().versionId())
                    .containsExactly("v4", "v3", "v2", "v1");
        }
    }

    @Test
    void storeOfTheFirstLayoutIsUpgradedWhenOpened(@TempDir Path legacyDirectory) throws Exception {
        writeLayoutOne(legacyDirectory);
        RocksDbConfig config = new RocksDbConfig(legacyDirectory, SyncPolicy.NONE, 8L << 20);

        try (MetadataStore upgraded = MetadataStores.rocksDb(config)) {
            ObjectVersion inline = upgraded.getObject("photos", "a").orElseThrow();
            assertThat(inline.content()).isEqualTo(new ObjectContent.Inline("hello".getBytes(UTF_8)));
            assertThat(upgraded.listObjects("photos", new ListQuery("", null, null, 10)).entries())
                    .extracting(ObjectVersion::key)
                    .containsExactly("a", "dir/ünï", "nul\0key");
            // The layout 1 delete marker left the objects family, and is still the key's version.
            assertThat(upgraded.getObject("photos", "gone").orElseThrow().isDeleteMarker()).isTrue();
            assertThat(upgraded.listVersions("photos", new VersionQuery("", null, null, null, 10)).versions())
                    .extracting(listed -> listed.version().key() + " " + listed.version().versionId())
                    .containsExactly("a null", "dir/ünï null", "gone v1");
            assertThat(upgraded.getAccessKey("GK1").orElseThrow().root()).isTrue();
            assertThat(upgraded.getBucket("photos")).isPresent();
            // Counted once when opened: the key with U+0000 too, though only objects holds it.
            long sizes = inline.size() + upgraded.getObject("photos", "dir/ünï").orElseThrow().size()
                    + upgraded.getObject("photos", "nul\0key").orElseThrow().size();
            assertThat(upgraded.statistics()).isEqualTo(new StoreStatistics(3, sizes, 1, 1, 0));

            // Unversioned writes and deletes work on upgraded keys as they did.
            assertThat(upgraded.putObject(inline("photos", "a", "new"))).contains(inline);
            ObjectVersion blocks = upgraded.getObject("photos", "dir/ünï").orElseThrow();
            assertThat(upgraded.deleteObject("photos", "dir/ünï")).contains(blocks);
            assertThat(upgraded.pendingGarbage(10)).containsExactlyInAnyOrder(
                    new BlockId("00112233445566778899aabbccddeeff"), new BlockId("ffeeddccbbaa99887766554433221100"));
        }
        // Opened again, nothing is copied twice.
        try (MetadataStore reopened = MetadataStores.rocksDb(config)) {
            assertThat(reopened.listVersions("photos", new VersionQuery("", null, null, null, 10)).versions())
                    .extracting(listed -> listed.version().key() + " " + listed.version().versionId())
                    .containsExactly("a null", "gone v1");
            long sizes = 3 + reopened.getObject("photos", "nul\0key").orElseThrow().size();
            assertThat(reopened.statistics()).isEqualTo(new StoreStatistics(2, sizes, 1, 1, 0));
        }
    }

    @Test
    void storeOfTheSecondLayoutGetsItsCountersWhenOpened() throws Exception {
        store.createBucket(bucket("photos"));
        store.createBucket(bucket("empty"));
        store.putObject(inline("photos", "a", "four"));
        store.putObject(version("photos", "k", "v1", newBlock()));
        store.putObject(version("photos", "k", "v2", newBlock(), newBlock()));
        store.putObject(marker("photos", "k", "m3"));
        store.createUpload(upload("photos", "big", "u1"));
        StoreStatistics expected = new StoreStatistics(3, 4 + (3L << 20), 1, 2, 1);
        assertThat(store.statistics()).isEqualTo(expected);
        store.close();
        // As the previous release left it: no counters family, layout 2.
        RawDatabase.write(directory, db -> {
            db.db().dropColumnFamily(db.handle(Family.COUNTERS));
            db.put(Family.META, Keys.META_LAYOUT, Keys.encodeLong(2));
        });

        store = openStore();
        assertThat(store.statistics()).isEqualTo(expected).isEqualTo(countedByListing());
        store.putObject(inline("photos", "b", "xy"));
        store.close();

        // Counted once: reopened, layout 3 keeps the counters it has.
        readRaw(db -> assertThat(Keys.decodeLong(db.get(Family.META, Keys.META_LAYOUT))).isEqualTo(3));
        store = openStore();
        assertThat(store.statistics()).isEqualTo(new StoreStatistics(4, 6 + (3L << 20), 1, 2, 1));
    }

    @Test
    void countersLeftBehindByAnInterruptedUpgradeAreCountedAgain() throws Exception {
        store.createBucket(bucket("photos"));
        store.putObject(inline("photos", "a", "four"));
        store.close();
        RawDatabase.write(directory, db -> {
            db.put(Family.COUNTERS, "objects".getBytes(UTF_8), Counter.encode(41));
            db.put(Family.COUNTERS, "bytes".getBytes(UTF_8), Counter.encode(-7));
            db.put(Family.META, Keys.META_LAYOUT, Keys.encodeLong(2));
        });

        store = openStore();

        assertThat(store.statistics()).isEqualTo(new StoreStatistics(1, 4, 0, 1, 0));
    }

    @Test
    void blocksOfALayoutOneKeyWithNulAreReferencesAndCounted(@TempDir Path legacyDirectory) throws Exception {
        writeLayoutOne(legacyDirectory);
        // A second U+0000 key, this one with blocks: the versions family cannot take it either.
        List<String> names = List.of("buckets", "objects", "uploads", "parts", "garbage", "access_keys");
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions();
                RocksDB db = RocksDB.open(options, legacyDirectory.toString(), descriptors(names), handles)) {
            db.put(handles.get(2), "photos\0blocks\0key".getBytes(UTF_8),
                    HexFormat.of().parseHex(RecordCodecTest.V1_BLOCKS_OBJECT));
        } finally {
            handles.forEach(ColumnFamilyHandle::close);
        }

        try (MetadataStore upgraded = MetadataStores.rocksDb(new RocksDbConfig(legacyDirectory, SyncPolicy.NONE, 8L << 20))) {
            ObjectVersion legacy = upgraded.getObject("photos", "blocks\0key").orElseThrow();
            List<BlockRef> visited = new ArrayList<>();
            upgraded.forEachBlockReference(visited::add);
            // dir/ünï has the same two blocks, from its version.
            assertThat(visited).containsExactlyInAnyOrder(
                    blocksOf(legacy).get(0), blocksOf(legacy).get(1), blocksOf(legacy).get(0), blocksOf(legacy).get(1));
            StoreStatistics before = upgraded.statistics();
            assertThat(before.objects()).isEqualTo(4);

            upgraded.deleteObject("photos", "blocks\0key");

            assertThat(upgraded.statistics())
                    .isEqualTo(new StoreStatistics(3, before.bytes() - legacy.size(), 1, 1, 0));
            visited.clear();
            upgraded.forEachBlockReference(visited::add);
            assertThat(visited).hasSize(2);
        }
    }

    private static List<BlockRef> blocksOf(ObjectVersion version) {
        return ((ObjectContent.Blocks) version.content()).blocks();
    }

    @Test
    void layoutOneKeyWithNulStaysReadableAndDeletable(@TempDir Path legacyDirectory) throws Exception {
        writeLayoutOne(legacyDirectory);

        try (MetadataStore upgraded = MetadataStores.rocksDb(new RocksDbConfig(legacyDirectory, SyncPolicy.NONE, 8L << 20))) {
            ObjectVersion legacy = upgraded.getObject("photos", "nul\0key").orElseThrow();
            assertThat(upgraded.getVersion("photos", "nul\0key", "null")).contains(legacy);
            upgraded.deleteObject("photos", "a");
            upgraded.deleteObject("photos", "dir/ünï");
            upgraded.deleteVersion("photos", "gone", "v1");
            assertThatThrownBy(() -> upgraded.deleteBucket("photos")).isInstanceOf(BucketNotEmptyException.class);

            assertThat(upgraded.deleteObject("photos", "nul\0key")).contains(legacy);

            assertThat(upgraded.getObject("photos", "nul\0key")).isEmpty();
            assertThat(upgraded.deleteBucket("photos")).isTrue();
        }
    }

    @Test
    void storeOfANewerLayoutIsRefused(@TempDir Path newerDirectory) throws Exception {
        RocksDbConfig config = new RocksDbConfig(newerDirectory, SyncPolicy.NONE, 8L << 20);
        MetadataStores.rocksDb(config).close();
        RawDatabase.write(newerDirectory, db -> db.put(Family.META, Keys.META_LAYOUT, Keys.encodeLong(4)));

        assertThatThrownBy(() -> MetadataStores.rocksDb(config))
                .isInstanceOf(MetadataStorageException.class)
                .hasMessageContaining("layout 4");

        // The refused open released the folder.
        RawDatabase.write(newerDirectory, db -> db.put(Family.META, Keys.META_LAYOUT, Keys.encodeLong(3)));
        MetadataStores.rocksDb(config).close();
    }

    @Test
    void aReleaseThatPredatesTheCountersFamilyCannotOpenTheStore() throws Exception {
        store.createBucket(bucket("photos"));
        store.putObject(inline("photos", "cat.jpg", "meow"));
        store.close();

        // As the previous release opened it: every family it knew, none with a merge operator.
        List<String> previousFamilies = familyNames().stream().filter(name -> !name.equals("counters")).toList();
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions()) {
            assertThatThrownBy(() -> RocksDB.open(options, directory.toString(), descriptors(previousFamilies), handles))
                    .isInstanceOf(RocksDBException.class)
                    .hasMessageContaining("counters");
        }

        // Refused before it replayed (and cut short) the log: everything is still there.
        store = openStore();
        assertThat(store.getObject("photos", "cat.jpg")).isPresent();
        assertThat(store.statistics().objects()).isEqualTo(1);
    }

    @Test
    void syncedStoreWorksTheSame(@TempDir Path syncedDirectory) throws Exception {
        try (MetadataStore synced = MetadataStores.rocksDb(RocksDbConfig.defaults(syncedDirectory))) {
            synced.createBucket(bucket("photos"));
            synced.putObject(inline("photos", "cat.jpg", "meow"));

            assertThat(synced.getObject("photos", "cat.jpg")).contains(inline("photos", "cat.jpg", "meow"));
        }
        assertThat(RocksDbConfig.defaults(syncedDirectory).sync()).isEqualTo(SyncPolicy.ALWAYS);
    }

    @Test
    void folderOpenElsewhereIsRefused() {
        assertThatThrownBy(() -> openStore()).isInstanceOf(MetadataStorageException.class);
    }

    @Test
    void namesThatTheKeyLayoutCannotHoldAreRefused() {
        assertThatThrownBy(() -> store.createBucket(bucket("bad\0name"))).isInstanceOf(IllegalArgumentException.class);
        store.createBucket(bucket("photos"));
        assertThatThrownBy(() -> store.createUpload(upload("photos", "bad\0key", "u1")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.putObject(inline("photos", "bad\0key", "x")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.putBucketConfig("photos", "", new byte[0]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void configurationIsValidated() {
        assertThatThrownBy(() -> new RocksDbConfig(directory, SyncPolicy.NONE, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(RocksDbConfig.defaults(directory).blockCacheBytes()).isEqualTo(64L << 20);
    }

    /** Opens the closed store's folder read-only with plain RocksDB, to see its actual layout. */
    private void readRaw(RawDatabase.Check check) throws RocksDBException {
        RawDatabase.read(directory, check);
    }

    private static List<String> familyNames() {
        return Arrays.stream(Family.values()).map(Family::familyName).toList();
    }

    private static List<ColumnFamilyDescriptor> descriptors(List<String> names) {
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY));
        for (String name : names) {
            descriptors.add(new ColumnFamilyDescriptor(name.getBytes(UTF_8)));
        }
        return descriptors;
    }

    /**
     * Writes a store as the first release laid it out: its column families only, no meta family,
     * records in format 1 (the fixtures of {@link RecordCodecTest}), a delete marker in the objects
     * family, and a key containing U+0000.
     */
    private static void writeLayoutOne(Path folder) throws RocksDBException {
        List<String> names = List.of("buckets", "objects", "uploads", "parts", "garbage", "access_keys");
        HexFormat hex = HexFormat.of();
        try (DBOptions options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)) {
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            try (RocksDB db = RocksDB.open(options, folder.toString(), descriptors(names), handles)) {
                ColumnFamilyHandle buckets = handles.get(1);
                ColumnFamilyHandle objects = handles.get(2);
                ColumnFamilyHandle accessKeys = handles.get(6);
                db.put(buckets, "photos".getBytes(UTF_8), hex.parseHex(RecordCodecTest.V1_BUCKET));
                db.put(objects, "photos\0a".getBytes(UTF_8), hex.parseHex(RecordCodecTest.V1_INLINE_OBJECT));
                db.put(objects, "photos\0dir/ünï".getBytes(UTF_8), hex.parseHex(RecordCodecTest.V1_BLOCKS_OBJECT));
                db.put(objects, "photos\0gone".getBytes(UTF_8), hex.parseHex(RecordCodecTest.V1_DELETE_MARKER));
                db.put(objects, "photos\0nul\0key".getBytes(UTF_8), hex.parseHex(RecordCodecTest.V1_INLINE_OBJECT));
                db.put(accessKeys, "GK1".getBytes(UTF_8), hex.parseHex(RecordCodecTest.V1_ACCESS_KEY));
            } finally {
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
    }
}
