package dev.hangar.cluster;

import dev.hangar.blockstore.SyncPolicy;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Configuration of one node.
 *
 * @param dataDirectory holds {@code metadata/} (RocksDB) and {@code blocks/}
 * @param sync when writes reach stable storage, for blocks and metadata alike
 * @param blockCacheBytes RocksDB block cache size
 * @param reclaimInterval how often queued blocks are freed when nobody asked for it sooner
 */
public record NodeConfig(Path dataDirectory, SyncPolicy sync, long blockCacheBytes, Duration reclaimInterval) {
    public NodeConfig {
        if (dataDirectory == null || sync == null || reclaimInterval == null) {
            throw new IllegalArgumentException("data directory, sync policy and reclaim interval are required");
        }
        if (blockCacheBytes <= 0) {
            throw new IllegalArgumentException("block cache size must be positive");
        }
    }

    public static NodeConfig defaults(Path dataDirectory) {
        return new NodeConfig(dataDirectory, SyncPolicy.ALWAYS, 64L << 20, Duration.ofSeconds(30));
    }
}
