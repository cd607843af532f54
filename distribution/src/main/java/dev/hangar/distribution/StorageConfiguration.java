package dev.hangar.distribution;

import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.cluster.Cluster;
import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.NodeConfig;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The storage service: a cluster of one over the data folder. */
@Configuration(proxyBeanMethods = false)
class StorageConfiguration {

    @Bean(destroyMethod = "close")
    ClusterNode clusterNode(HangarProperties properties) {
        HangarProperties.Storage storage = properties.storage();
        SyncPolicy sync = switch (storage.sync()) {
            case ALWAYS -> SyncPolicy.ALWAYS;
            case NONE -> SyncPolicy.NONE;
        };
        return Cluster.singleNode(new NodeConfig(
                properties.dataDir().toAbsolutePath(), sync, storage.blockCache().toBytes(), storage.reclaimInterval()));
    }
}
