package dev.hangar.distribution;

import dev.hangar.cluster.ClusterNode;
import dev.hangar.metadata.AccessKey;
import dev.hangar.s3api.web.S3Api;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The administration endpoints on the management port: access keys, the lifecycle worker, storage
 * maintenance and the cluster control plane. They have no authentication of their own: whoever reaches the
 * management port administers the server, which is why it listens on loopback unless configured otherwise.
 */
@Configuration(proxyBeanMethods = false)
class AdministrationConfiguration {

    @Bean
    AccessKeysEndpoint accessKeysEndpoint(ClusterNode node, AccessKey root, Clock clock) {
        return new AccessKeysEndpoint(node.metadata(), root, clock);
    }

    @Bean
    StorageEndpoint storageEndpoint(ClusterNode node) {
        return new StorageEndpoint(node);
    }

    @Bean
    ClusterEndpoint clusterEndpoint(ClusterNode node, HangarProperties properties) {
        return new ClusterEndpoint(node, properties.cluster().faultInjection());
    }

    @Bean
    LifecycleEndpoint lifecycleEndpoint(S3Api api, HangarProperties properties, Clock clock) {
        return new LifecycleEndpoint(api.service().lifecycle(), properties.lifecycle().interval(), clock);
    }
}
