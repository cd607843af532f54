package dev.hangar.metadata.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.metadata.AbstractMetadataStoreContractTest;
import dev.hangar.metadata.MetadataStorageException;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.MetadataStores;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.Part;
import java.nio.file.Path;
import java.util.ArrayList;
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
                            "default", "buckets", "objects", "uploads", "parts", "garbage", "access_keys");
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
        store.close();

        readRaw(db -> {
            assertThat(get(db, Family.BUCKETS, "photos".getBytes(UTF_8))[0]).isEqualTo((byte) 1);
            assertThat(get(db, Family.OBJECTS, "photos\0dog.jpg".getBytes(UTF_8))[0]).isEqualTo((byte) 1);
            assertThat(get(db, Family.UPLOADS, "photos\0big.iso\0u1".getBytes(UTF_8))[0]).isEqualTo((byte) 1);
            assertThat(get(db, Family.PARTS, new byte[] {'u', '1', 0, 0, 0, 0, 3})[0]).isEqualTo((byte) 1);
        });
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
