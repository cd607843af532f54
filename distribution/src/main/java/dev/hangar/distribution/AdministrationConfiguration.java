package dev.hangar.distribution;

import dev.hangar.cluster.ClusterNode;
import dev.hangar.metadata.AccessKey;
import dev.hangar.s3api.web.S3Api;
import java.time.Clock;
import java.util.Set;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The administration endpoints on the management port: access keys, the lifecycle worker, storage
 * maintenance and the cluster control plane; the token that guards them and the host names they answer to
 * (enforced on the management port by {@link AdministrationFilter}, see {@link ManagementPortConfiguration}),
 * and the strict reading of their arguments.
 */
@Configuration(proxyBeanMethods = false)
class AdministrationConfiguration {
    static final Set<EndpointId> ADMINISTRATION_ENDPOINTS = Set.of(EndpointId.of("accesskeys"),
            EndpointId.of("lifecycle"), EndpointId.of("storage"), EndpointId.of("cluster"), EndpointId.of("kmskeys"));

    @Bean
    AccessKeysEndpoint accessKeysEndpoint(ClusterNode node, AccessKey root, Clock clock, SecretSeal seal) {
        return new AccessKeysEndpoint(node.metadata(), root, clock, seal);
    }

    @Bean
    KmsKeysEndpoint kmsKeysEndpoint(S3Api api) {
        return new KmsKeysEndpoint(api.service().kmsKeys());
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
    LifecycleEndpoint lifecycleEndpoint(S3Api api, ClusterNode node, HangarProperties properties, Clock clock) {
        return new LifecycleEndpoint(api.service().lifecycle(), node.metadata(), properties.lifecycle().interval(),
                properties.admin().lifecycleAsOfLimit(), clock);
    }

    @Bean
    StrictArguments strictAdministrationArguments() {
        return new StrictArguments(ADMINISTRATION_ENDPOINTS);
    }

    @Bean
    AdminToken adminToken(HangarProperties properties, Environment environment) {
        if (ManagementPortType.get(environment) == ManagementPortType.SAME) {
            // In path-style S3 every first path segment is a bucket name, and the S3 port serves S3 only.
            throw new IllegalStateException("hangar.management.port must differ from hangar.s3.port: the "
                    + "administration and the metrics have a port of their own");
        }
        HangarProperties.Admin admin = properties.admin();
        return AdminToken.resolve(admin.token(), admin.tokenFile(), properties.dataDir());
    }

    @Bean
    AllowedHosts allowedHosts(HangarProperties properties, Environment environment) {
        return AllowedHosts.of(environment.getProperty("management.server.address"),
                properties.admin().allowedHosts());
    }
}
