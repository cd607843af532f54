package dev.hangar.metadata.rocksdb;

import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.metadata.MetadataStorageException;
import dev.hangar.metadata.listing.ByteKeys;
import dev.hangar.metadata.listing.OrderedCursor;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Slice;
import org.rocksdb.Statistics;
import org.rocksdb.StatsLevel;
import org.rocksdb.HistogramType;
import java.util.EnumSet;
import org.rocksdb.TickerType;
import dev.hangar.metadata.WriteLogStatistics;
import org.rocksdb.TickerType;
import org.rocksdb.UInt64AddOperator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The open RocksDB instance and every native object it needs, closed together. Turns {@link
 * RocksDBException} into {@link MetadataStorageException} so that callers see one failure type.
 */
final class Database implements AutoCloseable {
    private final RocksDB db;
    private final Map<Family, ColumnFamilyHandle> families;
    private final List<ColumnFamilyHandle> allHandles;
    private final WriteOptions writeOptions;
    private final List<AutoCloseable> options;
    /** With {@link SyncPolicy.Mode#BATCH}, what syncs the write-ahead log; otherwise null. */
    private final @Nullable WalSync walSync;
    /** RocksDB's tickers, when opened to collect them; otherwise null. */
    private final @Nullable Statistics statistics;
    /** With sync=always, the platform threads that make synced writes for virtual threads. */
    private final @Nullable SyncedWriters syncedWrites;

    private Database(
            RocksDB db,
            Map<Family, ColumnFamilyHandle> families,
            List<ColumnFamilyHandle> allHandles,
            WriteOptions writeOptions,
            List<AutoCloseable> options,
            @Nullable WalSync walSync,
            @Nullable Statistics statistics) {
        this.db = db;
        this.families = families;
        this.allHandles = allHandles;
        this.writeOptions = writeOptions;
        this.options = options;
        this.walSync = walSync;
        this.statistics = statistics;
        this.syncedWrites = writeOptions.sync() ? new SyncedWriters() : null;
    }

    static Database open(RocksDbConfig config) {
        return open(config, true);
    }

    /**
     * Opens the database; with {@code collectStatistics}, RocksDB counts its work in tickers that
     * {@link #ticker} reads (for tests: counting costs a little on every operation).
     */
    static Database open(RocksDbConfig config, boolean collectStatistics) {
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
            BloomFilter bloom = track(created, new BloomFilter(Tuning.BLOOM_BITS_PER_KEY));
            UInt64AddOperator counterMerge = track(created, new UInt64AddOperator());
            // Tickers only: no histograms, and no detailed timers, which read the clock around
            // every operation.
            Statistics statistics = collectStatistics
                    ? track(created, new Statistics(EnumSet.allOf(HistogramType.class)))
                    : null;
            if (statistics != null) {
                statistics.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
            }
            DBOptions databaseOptions = track(created, Tuning.databaseOptions(statistics));
            // ALWAYS syncs the log in each write; concurrent writers join one write group and share
            // its sync. BATCH and NONE write the log unsynced, which a process crash does not lose.
            WriteOptions writeOptions = track(created, new WriteOptions().setSync(switch (config.sync().mode()) {
                case ALWAYS -> true;
                case BATCH, NONE -> false;
            }));

            List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
            descriptors.add(new ColumnFamilyDescriptor(
                    RocksDB.DEFAULT_COLUMN_FAMILY,
                    track(created, Tuning.familyOptions(null, cache, bloom, counterMerge))));
            for (Family family : Family.values()) {
                descriptors.add(new ColumnFamilyDescriptor(
                        family.nameBytes(), track(created, Tuning.familyOptions(family, cache, bloom, counterMerge))));
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
            return new Database(db, families, handles, writeOptions, created, walSync, statistics);
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

    /** A RocksDB checkpoint of the whole database in {@code target} (which must not exist), after a flush. */
    void checkpoint(java.nio.file.Path target) {
        try (org.rocksdb.Checkpoint checkpoint = org.rocksdb.Checkpoint.create(db)) {
            checkpoint.createCheckpoint(target.toString());
        } catch (RocksDBException e) {
            throw new MetadataStorageException("checkpoint to " + target + " failed", e);
        }
    }

    Batch newBatch() {
        return new Batch();
    }

    /** Writes the batch, counter deltas included, atomically, synced or not as configured. */
    void commit(Batch batch) {
        if (walSync != null) {
            walSync.checkHealthy();
        }
        batch.stageCounts();
        if (syncedWrites != null && Thread.currentThread().isVirtual()) {
            syncedWrites.write(db, writeOptions, batch.writeBatch);
            return;
        }
        try {
            db.write(writeOptions, batch.writeBatch);
        } catch (RocksDBException e) {
            throw new MetadataStorageException("metadata write failed", e);
        }
    }

    /**
     * A forward cursor over {@code family} in key order; with an upper bound (exclusive) RocksDB
     * stops there itself instead of stepping past the end of a prefix, over tombstones included.
     */
    Cursor cursor(Family family, byte @Nullable [] upperBound) {
        return new Cursor(family, upperBound, false, null, true);
    }

    /**
     * A forward cursor over the keys of {@code family} that start with {@code prefix}, bounded
     * there. When every key under the prefix shares the family's extractor prefix (the prefix is
     * at least that long), the seek is a prefix seek, which the family's prefix bloom filters can
     * answer without reading a block of any SST file that has no such key; otherwise an ordinary
     * seek, since a prefix seek would then miss keys.
     */
    Cursor cursorUnder(Family family, byte[] prefix) {
        int extracted = Tuning.prefixBytes(family);
        boolean prefixSeek = extracted > 0 && prefix.length >= extracted;
        return new Cursor(family, ByteKeys.pastPrefix(prefix), prefixSeek, null, true);
    }

    /** A consistent view of the whole database as it is now, for reads that span families. */
    Snapshot snapshot() {
        return new Snapshot();
    }

    /** The values of the counters, by ordinal, read at one point in time; 0 for one never written. */
    long[] readCounters() {
        try (Snapshot snapshot = snapshot()) {
            long[] values = new long[Counter.values().length];
            for (Counter counter : Counter.values()) {
                byte[] raw = snapshot.get(Family.COUNTERS, counter.key());
                values[counter.ordinal()] = raw == null ? 0 : Counter.decode(raw);
            }
            return values;
        }
    }

    /** Syncs of the write-ahead log and how writers shared them, from RocksDB's tickers. */
    WriteLogStatistics writeLog() {
        if (statistics == null) {
            return WriteLogStatistics.NONE;
        }
        // A leader counts its own write as done by self and each follower's as done by other.
        long leaders = statistics.getTickerCount(TickerType.WRITE_DONE_BY_SELF);
        return new WriteLogStatistics(
                statistics.getTickerCount(TickerType.WAL_FILE_SYNCED),
                leaders,
                leaders + statistics.getTickerCount(TickerType.WRITE_DONE_BY_OTHER));
    }

    /** A RocksDB ticker; only when opened to collect statistics. */
    long ticker(TickerType type) {
        if (statistics == null) {
            throw new IllegalStateException("opened without statistics");
        }
        return statistics.getTickerCount(type);
    }

    /**
     * Flushes every memtable and compacts every family down to its last level, waiting for both:
     * for tests that need records in SST files, as a long-running store has them.
     */
    void flushAndCompact() {
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.flush(flush, allHandles);
            for (ColumnFamilyHandle handle : allHandles) {
                db.compactRange(handle);
            }
        } catch (RocksDBException e) {
            throw new MetadataStorageException("flush and compaction failed", e);
        }
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
            if (syncedWrites != null) {
                syncedWrites.close();
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

    /** Mutations of one atomic write, and the counter deltas that go with them. */
    final class Batch implements AutoCloseable {
        private final WriteBatch writeBatch = new WriteBatch();
        /** Deltas by counter ordinal, summed so that, say, an overwrite merges one operand, not two. */
        private final long[] counts = new long[Counter.values().length];

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

        /** Adds {@code delta} to a counter when the batch is committed, atomically with the rest. */
        void count(Counter counter, long delta) {
            counts[counter.ordinal()] += delta;
        }

        boolean isEmpty() {
            if (writeBatch.count() > 0) {
                return false;
            }
            for (long delta : counts) {
                if (delta != 0) {
                    return false;
                }
            }
            return true;
        }

        /** Moves the pending counter deltas into the write batch as merge operands. */
        private void stageCounts() {
            ColumnFamilyHandle counters = families.get(Family.COUNTERS);
            for (Counter counter : Counter.values()) {
                long delta = counts[counter.ordinal()];
                if (delta != 0) {
                    try {
                        writeBatch.merge(counters, counter.key(), Counter.encode(delta));
                    } catch (RocksDBException e) {
                        throw new MetadataStorageException("cannot add to write batch", e);
                    }
                    counts[counter.ordinal()] = 0;
                }
            }
        }

        @Override
        public void close() {
            writeBatch.close();
        }
    }

    /**
     * Reads at the point in time it was taken, across families: what one mutation wrote is seen
     * entirely or not at all. Holds RocksDB's snapshot until closed.
     */
    final class Snapshot implements AutoCloseable {
        private final org.rocksdb.Snapshot snapshot = db.getSnapshot();
        private final ReadOptions readOptions = new ReadOptions().setSnapshot(snapshot);

        byte @Nullable [] get(Family family, byte[] key) {
            try {
                return db.get(families.get(family), readOptions, key);
            } catch (RocksDBException e) {
                throw new MetadataStorageException("read from " + family.familyName() + " failed", e);
            }
        }

        /**
         * A cursor over the whole family in key order, as of the snapshot. A full scan reads
         * blocks once: it does not fill the block cache, so it does not evict what requests use.
         */
        Cursor scan(Family family) {
            return new Cursor(family, null, false, snapshot, false);
        }

        @Override
        public void close() {
            readOptions.close();
            db.releaseSnapshot(snapshot);
        }
    }

    /**
     * A RocksDB iterator with its read options; every key and value it returns is a copy. It is the
     * {@link OrderedCursor} that the listing rules read on a single node.
     */
    final class Cursor implements OrderedCursor, AutoCloseable {
        private final Family family;
        private final @Nullable Slice upperBound;
        private final ReadOptions readOptions;
        private final org.rocksdb.RocksIterator iterator;

        private Cursor(
                Family family,
                byte @Nullable [] upperBound,
                boolean prefixSeek,
                org.rocksdb.@Nullable Snapshot snapshot,
                boolean fillCache) {
            this.family = family;
            this.upperBound = upperBound == null ? null : new Slice(upperBound);
            // Total order unless asked: with a prefix extractor a seek would otherwise only be
            // defined within the prefix of its target, and scans cross prefixes.
            this.readOptions = new ReadOptions().setTotalOrderSeek(!prefixSeek).setFillCache(fillCache);
            if (prefixSeek) {
                readOptions.setPrefixSameAsStart(true);
            }
            if (this.upperBound != null) {
                readOptions.setIterateUpperBound(this.upperBound);
            }
            if (snapshot != null) {
                readOptions.setSnapshot(snapshot);
            }
            this.iterator = db.newIterator(families.get(family), readOptions);
        }

        @Override
        public void seek(byte[] target) {
            iterator.seek(target);
        }

        void seekToFirst() {
            iterator.seekToFirst();
        }

        @Override
        public void next() {
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

        /** The key at the cursor; null at the end. */
        @Override
        public byte @Nullable [] key() {
            return valid() ? iterator.key() : null;
        }

        @Override
        public byte[] value() {
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
