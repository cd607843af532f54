package dev.hangar.distribution;

import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.blockstore.s3.S3BlockStore;
import dev.hangar.blockstore.s3.S3BlockStoreConfig;
import dev.hangar.cluster.Cluster;
import dev.hangar.cluster.ClusterNode;
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
            case LOCAL -> new NodeConfig.BlockBackend.LocalDisk();
            case S3 -> new NodeConfig.BlockBackend.RemoteS3(remoteS3(storage));
        };
        return Cluster.singleNode(new NodeConfig(
                properties.dataDir().toAbsolutePath(), sync, storage.blockCache().toBytes(), storage.reclaimInterval(),
                backend));
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
