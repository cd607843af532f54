package dev.hangar.metadata.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.BlockId;
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
import dev.hangar.metadata.VersionQuery;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

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
                            "access_keys", "bucket_configs", "meta");
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
        store.close();

        readRaw(db -> {
            assertThat(get(db, Family.BUCKETS, "photos".getBytes(UTF_8))[0]).isEqualTo((byte) 1);
            assertThat(get(db, Family.OBJECTS, "photos\0dog.jpg".getBytes(UTF_8))[0]).isEqualTo((byte) 2);
            assertThat(get(db, Family.UPLOADS, "photos\0big.iso\0u1".getBytes(UTF_8))[0]).isEqualTo((byte) 1);
            assertThat(get(db, Family.PARTS, new byte[] {'u', '1', 0, 0, 0, 0, 3})[0]).isEqualTo((byte) 1);
            assertThat(get(db, Family.BUCKET_CONFIGS, "photos\0cors".getBytes(UTF_8))).containsExactly(1, 9);
            assertThat(get(db, Family.ACCESS_KEYS, "GK1".getBytes(UTF_8))[0]).isEqualTo((byte) 2);
            assertThat(Keys.decodeLong(get(db, Family.META, "layout".getBytes(UTF_8)))).isEqualTo(2);
            // cat.jpg left no version behind; dog.jpg has one, equal to its objects-family copy.
            List<byte[]> versionKeys = keys(db, Family.VERSIONS);
            assertThat(versionKeys).hasSize(1);
            byte[] versionKey = versionKeys.getFirst();
            assertThat(Arrays.copyOf(versionKey, versionKey.length - 8)).isEqualTo("photos\0dog.jpg\0".getBytes(UTF_8));
            assertThat(get(db, Family.VERSIONS, versionKey))
                    .isEqualTo(get(db, Family.OBJECTS, "photos\0dog.jpg".getBytes(UTF_8)));
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
            List<byte[]> versionKeys = keys(db, Family.VERSIONS);
            assertThat(versionKeys).hasSize(3);
            List<String> ids = versionKeys.stream()
                    .map(key -> RecordCodec.peekVersionId(get(db, Family.VERSIONS, key)))
                    .toList();
            assertThat(ids).containsExactly("m3", "v2", "v1");
            assertThat(Keys.versionSequence(versionKeys.get(0))).isGreaterThan(Keys.versionSequence(versionKeys.get(1)));
            assertThat(Keys.versionSequence(versionKeys.get(1))).isGreaterThan(Keys.versionSequence(versionKeys.get(2)));
            assertThat(keys(db, Family.OBJECTS)).isEmpty();
        });
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
        }
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
        writeLayoutVersion(newerDirectory, 3);

        assertThatThrownBy(() -> MetadataStores.rocksDb(config))
                .isInstanceOf(MetadataStorageException.class)
                .hasMessageContaining("layout 3");

        // The refused open released the folder.
        writeLayoutVersion(newerDirectory, 2);
        MetadataStores.rocksDb(config).close();
    }

    private static void writeLayoutVersion(Path folder, long layout) throws RocksDBException {
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions();
                RocksDB db = RocksDB.open(options, folder.toString(), descriptors(familyNames()), handles)) {
            db.put(handles.get(Family.META.ordinal() + 1), Keys.META_LAYOUT, Keys.encodeLong(layout));
        } finally {
            handles.forEach(ColumnFamilyHandle::close);
        }
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
    private void readRaw(Consumer<RawDatabase> check) throws RocksDBException {
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY));
        for (Family family : Family.values()) {
            descriptors.add(new ColumnFamilyDescriptor(family.nameBytes()));
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try (DBOptions options = new DBOptions();
                RocksDB db = RocksDB.openReadOnly(options, directory.toString(), descriptors, handles)) {
            check.accept(new RawDatabase(db, handles));
        } finally {
            handles.forEach(ColumnFamilyHandle::close);
        }
    }

    private record RawDatabase(RocksDB db, List<ColumnFamilyHandle> handles) {}

    private static List<byte[]> keys(RawDatabase raw, Family family) {
        List<byte[]> keys = new ArrayList<>();
        try (RocksIterator iterator = raw.db().newIterator(raw.handles().get(family.ordinal() + 1))) {
            for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
                keys.add(iterator.key());
            }
        }
        return keys;
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

    private static byte[] get(RawDatabase raw, Family family, byte[] key) {
        try {
            byte[] value = raw.db().get(raw.handles().get(family.ordinal() + 1), key);
            assertThat(value).as("%s key %s", family, new String(key, UTF_8)).isNotNull();
            return value;
        } catch (RocksDBException e) {
            throw new AssertionError(e);
        }
    }
}
