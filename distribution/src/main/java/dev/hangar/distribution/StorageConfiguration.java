package dev.hangar.distribution;

import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.blockstore.packed.PackingOptions;
import dev.hangar.blockstore.s3.S3BlockStore;
import dev.hangar.blockstore.s3.S3BlockStoreConfig;
import dev.hangar.cluster.Cluster;
import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.MaintenanceConfig;
import dev.hangar.cluster.NodeConfig;
import dev.hangar.cluster.RaftSettings;
import dev.hangar.cluster.ReplicationMode;
import dev.hangar.cluster.ReclaimConfig;
import dev.hangar.cluster.membership.ClusterSettings;
import dev.hangar.cluster.membership.Consistency;
import dev.hangar.cluster.membership.MembershipTiming;
import dev.hangar.cluster.rpc.ClusterSecret;
import dev.hangar.cluster.rpc.RpcTls;
import java.net.InetSocketAddress;
import java.util.List;
import org.jspecify.annotations.Nullable;
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
            case MEMORY -> new NodeConfig.BlockBackend.InMemory();
        };
        HangarProperties.Cluster cluster = properties.cluster();
        return Cluster.node(new NodeConfig(
                properties.dataDir().toAbsolutePath(), sync, storage.blockCache().toBytes(), storage.reclaimInterval(),
                backend), maintenance(storage), clusterSettings(cluster), timing(cluster), reclaim(cluster),
                raft(cluster));
    }

    /** The Raft mode's settings when {@code hangar.cluster.replication=raft} on a cluster node; null otherwise. */
    static @Nullable RaftSettings raft(HangarProperties.Cluster cluster) {
        try {
            if (!cluster.active() || ReplicationMode.ofCluster(cluster.replication()) != ReplicationMode.RAFT) {
                return null;
            }
            HangarProperties.ClusterRaft raft = cluster.raft();
            String bind = raft.bindAddress() == null || raft.bindAddress().isBlank() ? cluster.rpcBindAddress()
                    : raft.bindAddress().trim();
            return new RaftSettings(bind, raft.port(), RaftSettings.Reads.parse(raft.reads()), raft.expectedRtt(),
                    raft.snapshotEntries(), raft.logSegmentSize().toBytes(), raft.requestDeadline());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("invalid hangar.cluster settings: " + e.getMessage(), e);
        }
    }

    /** Gauges of the cluster's nodes and layout; binds nothing on a node without cluster settings. */
    @Bean
    ClusterMetrics clusterMetrics(ClusterNode node) {
        return new ClusterMetrics(node);
    }

    /** The health of the consensus groups (the Raft mode), as {@code /actuator/health}'s {@code consensus}. */
    @Bean
    ConsensusHealth consensusHealthIndicator(ClusterNode node) {
        return new ConsensusHealth(node);
    }

    /** Whether this node reaches a write quorum of every partition, as {@code /actuator/health}'s {@code quorum}. */
    @Bean
    QuorumHealth quorumHealthIndicator(ClusterNode node) {
        return new QuorumHealth(node);
    }

    /** The control plane's settings, or null when {@code hangar.cluster.*} asks for none. */
    static @Nullable ClusterSettings clusterSettings(HangarProperties.Cluster cluster) {
        if (!cluster.active()) {
            return null;
        }
        try {
            ReplicationMode.ofCluster(cluster.replication()); // refuses an unknown mode, naming the two
            String nodeId = cluster.nodeId() == null || cluster.nodeId().isBlank() ? null : cluster.nodeId().trim();
            List<InetSocketAddress> seeds =
                    cluster.seeds() == null ? List.of() : ClusterSettings.parseSeeds(cluster.seeds());
            return new ClusterSettings(nodeId, cluster.zone(), cluster.capacity(), cluster.rpcBindAddress(),
                    cluster.rpcPort(), advertised(cluster.advertisedAddress()), seeds, cluster.replicationFactor(),
                    Consistency.parse(cluster.consistency()), cluster.bootstrapExpect(), secret(cluster),
                    tls(cluster.tls()), cluster.maxClockSkew());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("invalid hangar.cluster settings: " + e.getMessage(), e);
        }
    }

    /** The secret from {@code hangar.cluster.secret} or the file {@code hangar.cluster.secret-file}, never both. */
    static ClusterSecret secret(HangarProperties.Cluster cluster) {
        boolean inline = cluster.secret() != null && !cluster.secret().isBlank();
        if (inline && cluster.secretFile() != null) {
            throw new IllegalStateException("set hangar.cluster.secret or hangar.cluster.secret-file, not both");
        }
        if (inline) {
            return ClusterSecret.of(cluster.secret());
        }
        if (cluster.secretFile() != null) {
            return ClusterSecret.read(cluster.secretFile());
        }
        throw new IllegalStateException("a cluster node needs the cluster secret, which every RPC connection must"
                + " prove: set hangar.cluster.secret (HANGAR_CLUSTER_SECRET) or hangar.cluster.secret-file"
                + " (HANGAR_CLUSTER_SECRET_FILE) to the same secret of at least " + ClusterSecret.MIN_LENGTH
                + " characters on every node, for example the output of `openssl rand -base64 32`");
    }

    private static @Nullable RpcTls tls(HangarProperties.ClusterTls tls) {
        if (!tls.enabled()) {
            return null;
        }
        if (tls.certificate() == null || tls.privateKey() == null || tls.trustCertificates() == null) {
            throw new IllegalStateException("hangar.cluster.tls.enabled needs hangar.cluster.tls.certificate,"
                    + " hangar.cluster.tls.private-key and hangar.cluster.tls.trust-certificates");
        }
        return new RpcTls(tls.certificate(), tls.privateKey(), tls.trustCertificates());
    }

    private static ReclaimConfig reclaim(HangarProperties.Cluster cluster) {
        try {
            return new ReclaimConfig(cluster.garbageGrace(), cluster.silentNodeWait());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("invalid hangar.cluster settings: " + e.getMessage(), e);
        }
    }

    private static MembershipTiming timing(HangarProperties.Cluster cluster) {
        MembershipTiming defaults = MembershipTiming.defaults();
        return new MembershipTiming(cluster.pingInterval(), defaults.suspectAfter(), defaults.downAfter());
    }

    /** {@code host} (the bound port) or {@code host:port}; null when not configured. */
    private static @Nullable InetSocketAddress advertised(@Nullable String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String address = text.trim();
        boolean hasPort = address.startsWith("[") ? address.contains("]:") : address.indexOf(':') > 0
                && address.indexOf(':') == address.lastIndexOf(':');
        if (hasPort) {
            return ClusterSettings.parseSeeds(address).getFirst();
        }
        String host = address.startsWith("[") && address.endsWith("]") ? address.substring(1, address.length() - 1)
                : address;
        return InetSocketAddress.createUnresolved(host, 0);
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
