package dev.hangar.metadata.rocksdb;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.Filter;
import org.rocksdb.MergeOperator;
import org.rocksdb.Statistics;

/**
 * The RocksDB options of the store, per column family where access patterns differ. Sized for a
 * small node (two cores, a few GiB of memory) serving many small objects: point lookups of current
 * objects, a seek into the versions of one key per write, prefix scans for listings.
 */
final class Tuning {
    /**
     * Length of the capped prefix of versions-family keys that prefix bloom filters index. A write
     * seeks to {@code bucket 0 key 0} to find the current version of its key; for a new key (every
     * write of a bulk load) nothing is there, and the filter lets the seek skip every SST file
     * without reading a block. 16 bytes cover a typical bucket name and the start of the key, which
     * tells hash-like and random keys apart; keys whose {@code bucket 0 key 0} is shorter fall back
     * to an ordinary seek (see {@link Database#cursorUnder}).
     */
    static final int VERSIONS_PREFIX_BYTES = 16;

    private static final long MIB = 1L << 20;
    /** About 1% false positives: a lookup of a missing key rarely touches a data block. */
    static final double BLOOM_BITS_PER_KEY = 10;

    private Tuning() {}

    static DBOptions databaseOptions(@Nullable Statistics statistics) {
        DBOptions options = new DBOptions()
                .setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                // Two cores: one flush and one compaction at a time; more would only take CPU from
                // request threads without finishing background work sooner.
                .setMaxBackgroundJobs(2)
                // Writes back SST files every MiB as they are written, so a flush or compaction
                // does not leave a burst of dirty pages that stalls the next WAL sync.
                .setBytesPerSync(MIB)
                // The same for the log when it is not synced per write (batch and none): the
                // periodic sync then has little left to write.
                .setWalBytesPerSync(512 * 1024)
                // Rarely written families (buckets, access keys) would otherwise keep old logs
                // alive until the total reaches four times all memtables; this flushes them sooner,
                // bounding log disk use and replay time at restart.
                .setMaxTotalWalSize(256 * MIB);
        if (statistics != null) {
            // Tickers: log syncs and write groups for metrics; seeks, nexts and bloom checks for
            // tests. Counters only, which cost an increment per event.
            options.setStatistics(statistics);
        }
        return options;
    }

    /**
     * The options of one family ({@code null}: RocksDB's default family, which the store does not
     * use).
     */
    static ColumnFamilyOptions familyOptions(
            @Nullable Family family, Cache cache, Filter bloom, MergeOperator counterMerge) {
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(cache)
                // Index and filter blocks count against the cache, so memory stays bounded as the
                // number of objects grows; level-0 ones stay pinned as they are hit most.
                .setCacheIndexAndFilterBlocks(true)
                .setPinL0FilterAndIndexBlocksInCache(true);
        ColumnFamilyOptions options = new ColumnFamilyOptions()
                // Flushes (level 0) stay uncompressed: they are rewritten soonest, and compressing
                // them would cost CPU on the write path. Every level below, LZ4: cheap enough for
                // two cores, and metadata (keys, ETags, headers, times) compresses well; blocks
                // that do not (random inline payloads) are stored as they are. ZSTD would save
                // more space at the bottom but cost compaction CPU that two cores lack.
                .setCompressionPerLevel(compressionPerLevel());
        if (family == null) {
            return options.setWriteBufferSize(4 * MIB).setTableFormatConfig(table);
        }
        switch (family) {
            case OBJECTS -> {
                table.setFilterPolicy(bloom);
                // GETs look up current objects by whole key, and mostly find them: the filter of
                // the last level (90% of the data) would only save work for misses (404s, deleted
                // keys), which then read one data block more. Dropping it keeps the filters of
                // the largest family small enough to stay cached as the bucket grows.
                options.setOptimizeFiltersForHits(true);
                // The hottest family, with versions: large memtables mean fewer, larger flushes.
                options.setWriteBufferSize(32 * MIB);
            }
            case VERSIONS -> {
                // Only ever read by seeks (never by whole key): a prefix filter, no whole-key one.
                table.setFilterPolicy(bloom).setWholeKeyFiltering(false);
                options.useCappedPrefixExtractor(VERSIONS_PREFIX_BYTES);
                // Every write of an object writes here too.
                options.setWriteBufferSize(32 * MIB);
            }
            case GARBAGE -> {
                // Only scanned, never looked up: a filter would be built and cached for nothing.
                options.setWriteBufferSize(4 * MIB);
            }
            case COUNTERS -> {
                // A handful of keys, all in one block: no filter.
                options.setMergeOperator(counterMerge);
                // Every mutation merges an operand or two here, and reading a counter adds up
                // those still in the memtable: a small memtable keeps that sum short.
                options.setWriteBufferSize(2 * MIB);
            }
            case BUCKETS, UPLOADS, PARTS, ACCESS_KEYS, BUCKET_CONFIGS, META, SERVICE_CONFIGS -> {
                // Point lookups, often of names that do not exist (an upload's part not yet sent,
                // a bucket without CORS): whole-key filters on every level.
                table.setFilterPolicy(bloom);
                // Small families: small memtables, so they hold little memory while idle.
                options.setWriteBufferSize(4 * MIB);
            }
        }
        return options.setTableFormatConfig(table);
    }

    /** The length of the prefix a family's prefix extractor takes; 0 if it has none. */
    static int prefixBytes(Family family) {
        return family == Family.VERSIONS ? VERSIONS_PREFIX_BYTES : 0;
    }

    /**
     * One entry per level, of RocksDB's default seven. With dynamic level sizing (RocksDB's
     * default) entry 1 is the base level, the first that level 0 compacts into, wherever it is:
     * in a store below a few hundred MiB it is the last level and holds everything, so it must be
     * compressed too.
     */
    private static List<CompressionType> compressionPerLevel() {
        CompressionType none = CompressionType.NO_COMPRESSION;
        CompressionType lz4 = CompressionType.LZ4_COMPRESSION;
        return List.of(none, lz4, lz4, lz4, lz4, lz4, lz4);
    }
}
