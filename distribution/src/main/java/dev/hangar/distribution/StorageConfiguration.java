package dev.hangar.distribution;

import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.blockstore.packed.PackingOptions;
import dev.hangar.blockstore.s3.S3BlockStore;
import dev.hangar.blockstore.s3.S3BlockStoreConfig;
import dev.hangar.cluster.Cluster;
import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.MaintenanceConfig;
import dev.hangar.cluster.NodeConfig;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The storage service: a cluster of one over the data folder, its blocks local or in a remote S3 bucket. */
@Configuration(proxyBeanMethods = false)
class StorageConfiguration {

    @Bean(destroyMethod = "close")
    ClusterNode clusterNode(HangarProperties properties) {
        HangarProperties.Storage storage = properties.storage();
        SyncPolicy sync = switch (storage.sync()) {
            case ALWAYS -> SyncPolicy.ALWAYS;
            case BATCH -> SyncPolicy.batch(storage.syncInterval());
            case NONE -> SyncPolicy.NONE;
        };
        NodeConfig.BlockBackend backend = switch (storage.backend()) {
            case LOCAL -> new NodeConfig.BlockBackend.LocalDisk(packing(storage.packing()));
            case S3 -> new NodeConfig.BlockBackend.RemoteS3(remoteS3(storage));
        };
        return Cluster.singleNode(new NodeConfig(
                properties.dataDir().toAbsolutePath(), sync, storage.blockCache().toBytes(), storage.reclaimInterval(),
                backend), maintenance(storage));
    }

    /** Micrometer gauges and counters of what is stored and of the maintenance. */
    @Bean
    StorageMetrics storageMetrics(ClusterNode node) {
        return new StorageMetrics(node);
    }

    private static MaintenanceConfig maintenance(HangarProperties.Storage storage) {
        HangarProperties.Scrub scrub = storage.scrub();
        return new MaintenanceConfig(
                storage.compactionInterval(), scrub.interval(), scrub.rate().toBytes(), scrub.orphanGrace());
    }

    private static PackingOptions packing(HangarProperties.Packing packing) {
        long below = packing.below().toBytes();
        if (below < 0 || below > Integer.MAX_VALUE) {
            throw new IllegalStateException("hangar.storage.packing.below must be between 0 and 2 GB: " + packing.below());
        }
        return new PackingOptions(
                (int) Math.max(0, below - 1), packing.segmentSize().toBytes(), packing.compactionThreshold());
    }

    private static S3BlockStoreConfig remoteS3(HangarProperties.Storage storage) {
        HangarProperties.RemoteS3 s3 = storage.s3();
        if (s3.bucket() == null || s3.bucket().isBlank()) {
            throw new IllegalStateException("hangar.storage.s3.bucket is required with hangar.storage.backend=s3");
        }
        // The S3 backend buffers each block in memory, so it bounds the chunk size.
        if (storage.chunkSize().toBytes() > S3BlockStore.MAX_BLOCK_SIZE) {
            throw new IllegalStateException("hangar.storage.chunk-size must be at most " + S3BlockStore.MAX_BLOCK_SIZE
                    + " bytes with hangar.storage.backend=s3: " + storage.chunkSize());
        }
        return new S3BlockStoreConfig(
                s3.endpoint(), s3.region(), s3.bucket(), s3.prefix(), s3.accessKey(), s3.secretKey(), s3.pathStyle());
    }
}
