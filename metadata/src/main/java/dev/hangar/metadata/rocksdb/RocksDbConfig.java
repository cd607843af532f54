package dev.hangar.metadata.rocksdb;

import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.metadata.MetadataStore;
import java.nio.file.Path;

/**
 * Configuration of a RocksDB metadata store.
 *
 * @param directory the folder that holds the database; created if missing
 * @param sync {@link SyncPolicy#ALWAYS} syncs the write-ahead log before each mutation returns
 *     (survives power loss; concurrent writers share a sync through RocksDB's write groups); {@link
 *     SyncPolicy#batch} writes the log unsynced and a background thread syncs it at least every
 *     interval and on close (survives a process crash; a power loss loses at most about the last
 *     interval); {@link SyncPolicy#NONE} leaves it to the operating system (survives a process
 *     crash, since each write still reaches the log file before it returns)
 * @param blockCacheBytes size of the block cache shared by all column families
 * @param syncInBackground with {@link SyncPolicy#batch}, whether the store's own thread syncs the
 *     log; if false the owner must call {@link MetadataStore#sync} at least every interval (a node
 *     does, right after forcing the blocks that the metadata points to), and close still syncs it a
 *     last time. The other policies ignore it.
 */
public record RocksDbConfig(Path directory, SyncPolicy sync, long blockCacheBytes, boolean syncInBackground) {
    public static final long DEFAULT_BLOCK_CACHE_BYTES = 64L << 20;

    public RocksDbConfig {
        if (directory == null || sync == null) {
            throw new IllegalArgumentException("directory and sync policy are required");
        }
        if (blockCacheBytes <= 0) {
            throw new IllegalArgumentException("block cache size must be positive: " + blockCacheBytes);
        }
    }

    /** A store that, with {@link SyncPolicy#batch}, syncs its log from a thread of its own. */
    public RocksDbConfig(Path directory, SyncPolicy sync, long blockCacheBytes) {
        this(directory, sync, blockCacheBytes, true);
    }

    /** Syncs every mutation, 64 MiB block cache. */
    public static RocksDbConfig defaults(Path directory) {
        return new RocksDbConfig(directory, SyncPolicy.ALWAYS, DEFAULT_BLOCK_CACHE_BYTES);
    }
}
