package dev.hangar.metadata.rocksdb;

import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.metadata.MetadataStorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The open RocksDB instance and every native object it needs, closed together. Turns {@link
 * RocksDBException} into {@link MetadataStorageException} so that callers see one failure type.
 */
final class Database implements AutoCloseable {
    /** Bits per key: about 1% false positives, so a get of a missing key rarely touches a block. */
    private static final double BLOOM_BITS_PER_KEY = 10;

    private final RocksDB db;
    private final Map<Family, ColumnFamilyHandle> families;
    private final List<ColumnFamilyHandle> allHandles;
    private final WriteOptions writeOptions;
    private final List<AutoCloseable> options;
    /** With {@link SyncPolicy.Mode#BATCH}, what syncs the write-ahead log; otherwise null. */
    private final @Nullable WalSync walSync;

    private Database(
            RocksDB db,
            Map<Family, ColumnFamilyHandle> families,
            List<ColumnFamilyHandle> allHandles,
            WriteOptions writeOptions,
            List<AutoCloseable> options,
            @Nullable WalSync walSync) {
        this.db = db;
        this.families = families;
        this.allHandles = allHandles;
        this.writeOptions = writeOptions;
        this.options = options;
        this.walSync = walSync;
    }

    static Database open(RocksDbConfig config) {
        RocksDB.loadLibrary();
        try {
            Files.createDirectories(config.directory());
        } catch (IOException e) {
            throw new MetadataStorageException("cannot create " + config.directory(), e);
        }
        // Closed in reverse order of creation, whether open succeeds or not.
        List<AutoCloseable> created = new ArrayList<>();
        try {
            Cache cache = track(created, new LRUCache(config.blockCacheBytes()));
            BloomFilter filter = track(created, new BloomFilter(BLOOM_BITS_PER_KEY));
            BlockBasedTableConfig table = new BlockBasedTableConfig()
                    .setBlockCache(cache)
                    .setFilterPolicy(filter)
                    // Index and filter blocks count against the cache, so memory stays bounded as
                    // the number of objects grows; level-0 ones stay pinned as they are hit most.
                    .setCacheIndexAndFilterBlocks(true)
                    .setPinL0FilterAndIndexBlocksInCache(true);
            ColumnFamilyOptions familyOptions = track(created, new ColumnFamilyOptions().setTableFormatConfig(table));
            DBOptions databaseOptions = track(
                    created, new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true));
            // ALWAYS syncs the log in each write; concurrent writers join one write group and share
            // its sync. BATCH and NONE write the log unsynced, which a process crash does not lose.
            WriteOptions writeOptions = track(created, new WriteOptions().setSync(switch (config.sync().mode()) {
                case ALWAYS -> true;
                case BATCH, NONE -> false;
            }));

            List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
            descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, familyOptions));
            for (Family family : Family.values()) {
                descriptors.add(new ColumnFamilyDescriptor(family.nameBytes(), familyOptions));
            }
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            RocksDB db = RocksDB.open(databaseOptions, config.directory().toString(), descriptors, handles);
            Map<Family, ColumnFamilyHandle> families = new EnumMap<>(Family.class);
            for (Family family : Family.values()) {
                // Handles come back in the order of the descriptors, the default family first.
                families.put(family, handles.get(family.ordinal() + 1));
            }
            WalSync walSync = switch (config.sync().mode()) {
                case ALWAYS, NONE -> null;
                case BATCH ->
                    new WalSync(
                            db,
                            config.sync().interval(),
                            "hangar-wal-sync " + config.directory(),
                            config.syncInBackground());
            };
            return new Database(db, families, handles, writeOptions, created, walSync);
        } catch (RocksDBException | RuntimeException e) {
            closeAll(created);
            throw new MetadataStorageException("cannot open metadata store in " + config.directory(), e);
        }
    }

    private static <T extends AutoCloseable> T track(List<AutoCloseable> created, T resource) {
        created.add(resource);
        return resource;
    }

    byte @Nullable [] get(Family family, byte[] key) {
        try {
            return db.get(families.get(family), key);
        } catch (RocksDBException e) {
            throw new MetadataStorageException("read from " + family.familyName() + " failed", e);
        }
    }

    Batch newBatch() {
        return new Batch();
    }

    /** Writes the batch atomically, synced or not as configured. */
    void commit(Batch batch) {
        if (walSync != null) {
            walSync.checkHealthy();
        }
        try {
            db.write(writeOptions, batch.writeBatch);
        } catch (RocksDBException e) {
            throw new MetadataStorageException("metadata write failed", e);
        }
    }

    /**
     * A forward cursor over {@code family}; with an upper bound (exclusive) RocksDB stops there
     * itself instead of stepping past the end of a prefix, over tombstones included.
     */
    Cursor cursor(Family family, byte @Nullable [] upperBound) {
        return new Cursor(family, upperBound);
    }

    /**
     * With BATCH, syncs the write-ahead log now, so every mutation committed before the call is on
     * stable storage; otherwise does nothing (ALWAYS synced each commit, NONE leaves it to the OS).
     */
    void syncWal() {
        if (walSync != null) {
            walSync.sync();
        }
    }

    /** Syncs of the write-ahead log by the batch sync so far; 0 unless BATCH. For tests. */
    long backgroundWalSyncs() {
        return walSync == null ? 0 : walSync.syncs();
    }

    @Override
    public void close() {
        try {
            if (walSync != null) {
                // The last sync, while the database is still open.
                walSync.close();
            }
        } finally {
            // Column family handles before the database, the options it used after it.
            for (ColumnFamilyHandle handle : allHandles) {
                handle.close();
            }
            db.close();
            closeAll(options);
        }
    }

    private static void closeAll(List<AutoCloseable> resources) {
        for (AutoCloseable resource : resources.reversed()) {
            try {
                resource.close();
            } catch (Exception e) {
                // Native options do not fail to close; nothing useful to do if one did.
            }
        }
    }

    /** Mutations of one atomic write. */
    final class Batch implements AutoCloseable {
        private final WriteBatch writeBatch = new WriteBatch();

        void put(Family family, byte[] key, byte[] value) {
            try {
                writeBatch.put(families.get(family), key, value);
            } catch (RocksDBException e) {
                throw new MetadataStorageException("cannot add to write batch", e);
            }
        }

        void delete(Family family, byte[] key) {
            try {
                writeBatch.delete(families.get(family), key);
            } catch (RocksDBException e) {
                throw new MetadataStorageException("cannot add to write batch", e);
            }
        }

        boolean isEmpty() {
            return writeBatch.count() == 0;
        }

        @Override
        public void close() {
            writeBatch.close();
        }
    }

    /** A RocksDB iterator with its read options; every key and value it returns is a copy. */
    final class Cursor implements AutoCloseable {
        private final Family family;
        private final @Nullable Slice upperBound;
        private final ReadOptions readOptions;
        private final org.rocksdb.RocksIterator iterator;

        private Cursor(Family family, byte @Nullable [] upperBound) {
            this.family = family;
            this.upperBound = upperBound == null ? null : new Slice(upperBound);
            this.readOptions = new ReadOptions();
            if (this.upperBound != null) {
                readOptions.setIterateUpperBound(this.upperBound);
            }
            this.iterator = db.newIterator(families.get(family), readOptions);
        }

        void seek(byte[] target) {
            iterator.seek(target);
        }

        void seekToFirst() {
            iterator.seekToFirst();
        }

        void next() {
            iterator.next();
        }

        /** True on an entry; false at the end, after checking that the end is not an error. */
        boolean valid() {
            if (iterator.isValid()) {
                return true;
            }
            try {
                iterator.status();
            } catch (RocksDBException e) {
                throw new MetadataStorageException("scan of " + family.familyName() + " failed", e);
            }
            return false;
        }

        byte[] key() {
            return iterator.key();
        }

        byte[] value() {
            return iterator.value();
        }

        @Override
        public void close() {
            iterator.close();
            readOptions.close();
            if (upperBound != null) {
                upperBound.close();
            }
        }
    }
}
