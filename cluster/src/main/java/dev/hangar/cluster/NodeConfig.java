package dev.hangar.cluster;

import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.blockstore.packed.PackingOptions;
import dev.hangar.blockstore.s3.S3BlockStoreConfig;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Configuration of one node.
 *
 * @param dataDirectory holds {@code metadata/} (RocksDB) and, with the local-disk backend, {@code blocks/}
 * @param sync when writes reach stable storage, for local blocks and metadata alike
 * @param blockCacheBytes RocksDB block cache size
 * @param reclaimInterval how often queued blocks are freed when nobody asked for it sooner
 * @param blockBackend where object chunks are kept
 */
public record NodeConfig(
        Path dataDirectory, SyncPolicy sync, long blockCacheBytes, Duration reclaimInterval, BlockBackend blockBackend) {
    public NodeConfig {
        if (dataDirectory == null || sync == null || reclaimInterval == null || blockBackend == null) {
            throw new IllegalArgumentException(
                    "data directory, sync policy, reclaim interval and block backend are required");
        }
        if (blockCacheBytes <= 0) {
            throw new IllegalArgumentException("block cache size must be positive");
        }
    }

    /** A node that keeps its blocks on local disk, under {@code dataDirectory/blocks}. */
    public NodeConfig(Path dataDirectory, SyncPolicy sync, long blockCacheBytes, Duration reclaimInterval) {
        this(dataDirectory, sync, blockCacheBytes, reclaimInterval, new BlockBackend.LocalDisk());
    }

    public static NodeConfig defaults(Path dataDirectory) {
        return new NodeConfig(dataDirectory, SyncPolicy.ALWAYS, 64L << 20, Duration.ofSeconds(30));
    }

    /** This configuration with its blocks kept by {@code backend}. */
    public NodeConfig withBlockBackend(BlockBackend backend) {
        return new NodeConfig(dataDirectory, sync, blockCacheBytes, reclaimInterval, backend);
    }

    /** Where a node keeps object chunks (blocks); metadata always stays in the data directory. */
    public sealed interface BlockBackend {

        /**
         * Blocks under {@code dataDirectory/blocks}, made durable according to {@code sync}: those
         * {@code packing} calls small are appended to segment files, the others kept as a file each.
         */
        record LocalDisk(PackingOptions packing) implements BlockBackend {
            public LocalDisk {
                if (packing == null) {
                    throw new IllegalArgumentException("packing options are required");
                }
            }

            /** With the default packing: chunks under 1 MiB into 256 MiB segments. */
            public LocalDisk() {
                this(PackingOptions.DEFAULTS);
            }
        }

        /**
         * One object per block in a bucket of another S3 service. How durable a block is once written
         * is up to that service; {@code sync} still governs the local metadata.
         */
        record RemoteS3(S3BlockStoreConfig config) implements BlockBackend {
            public RemoteS3 {
                if (config == null) {
                    throw new IllegalArgumentException("S3 block store configuration is required");
                }
            }
        }

        /**
         * Blocks in the heap, gone when the node stops: for tests, where a disk is only a cost. The metadata
         * stays in RocksDB on {@code dataDirectory}.
         */
        record InMemory() implements BlockBackend {}
    }
}
