package dev.hangar.cluster.membership;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.rpc.ClusterSecret;
import dev.hangar.cluster.rpc.RpcTls;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What {@code hangar.cluster.*} configures for one node.
 *
 * @param nodeId the operator's name for this node; null to use the id generated once and kept in the
 *     data directory (see {@link NodeIdentity})
 * @param zone failure domain; replicas of a partition go to as many distinct zones as possible
 * @param capacity share of the data relative to other nodes; 0 makes a gateway that holds none
 * @param rpcBindAddress interface the RPC server listens on
 * @param rpcPort RPC port; 0 picks a free one (tests)
 * @param advertisedAddress where other nodes reach this one; null for the bind address, and a port
 *     of 0 stands for the port actually bound
 * @param seeds RPC addresses of nodes to contact first; it may include this node itself
 * @param replicationFactor copies of every partition
 * @param consistency quorum sizes
 * @param bootstrapExpect when positive, the first layout forms by itself once this many storage nodes
 *     know each other
 * @param secret the secret every node of the cluster shares, which every RPC connection must prove
 *     knowledge of; its {@code toString} shows nothing of it
 * @param tls TLS on the RPC port, or null for none
 * @param maxClockSkew how far ahead of this node's clock a timestamp from another node may be; one
 *     further ahead is refused rather than pulling this node's clock into the future
 */
public record ClusterSettings(
        @Nullable String nodeId,
        String zone,
        long capacity,
        String rpcBindAddress,
        int rpcPort,
        @Nullable InetSocketAddress advertisedAddress,
        List<InetSocketAddress> seeds,
        int replicationFactor,
        Consistency consistency,
        int bootstrapExpect,
        ClusterSecret secret,
        @Nullable RpcTls tls,
        Duration maxClockSkew) {

    public static final String DEFAULT_ZONE = "default";
    public static final int DEFAULT_RPC_PORT = 3901;
    public static final int DEFAULT_REPLICATION_FACTOR = 3;
    public static final Duration DEFAULT_MAX_CLOCK_SKEW = Duration.ofMinutes(1);

    public ClusterSettings {
        if (nodeId != null) {
            new NodeId(nodeId); // validates
        }
        if (zone == null || zone.isBlank()) {
            throw new IllegalArgumentException("zone must not be blank");
        }
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative: " + capacity);
        }
        if (rpcBindAddress == null || rpcBindAddress.isBlank()) {
            throw new IllegalArgumentException("RPC bind address must not be blank");
        }
        if (rpcPort < 0 || rpcPort > 0xffff) {
            throw new IllegalArgumentException("RPC port must be between 0 and 65535: " + rpcPort);
        }
        seeds = List.copyOf(Objects.requireNonNull(seeds, "seeds"));
        if (replicationFactor < 1 || replicationFactor > 127) {
            throw new IllegalArgumentException("replication factor must be between 1 and 127: " + replicationFactor);
        }
        Objects.requireNonNull(consistency, "consistency");
        if (bootstrapExpect < 0) {
            throw new IllegalArgumentException("bootstrap-expect must not be negative: " + bootstrapExpect);
        }
        Objects.requireNonNull(secret, "a cluster node needs the cluster secret");
        if (maxClockSkew.isNegative() || maxClockSkew.isZero()) {
            throw new IllegalArgumentException("max clock skew must be positive: " + maxClockSkew);
        }
    }

    /**
     * A cluster of one with {@code secret}: generated id, default zone, capacity 1, no seeds, replication
     * factor 3, consistent, no TLS, a minute of clock skew.
     */
    public static ClusterSettings defaults(ClusterSecret secret) {
        return new ClusterSettings(null, DEFAULT_ZONE, 1, "0.0.0.0", DEFAULT_RPC_PORT, null, List.of(),
                DEFAULT_REPLICATION_FACTOR, Consistency.CONSISTENT, 0, secret, null, DEFAULT_MAX_CLOCK_SKEW);
    }

    public ClusterSettings withNodeId(@Nullable String id) {
        return new ClusterSettings(id, zone, capacity, rpcBindAddress, rpcPort, advertisedAddress, seeds,
                replicationFactor, consistency, bootstrapExpect, secret, tls, maxClockSkew);
    }

    public ClusterSettings withRole(String newZone, long newCapacity) {
        return new ClusterSettings(nodeId, newZone, newCapacity, rpcBindAddress, rpcPort, advertisedAddress, seeds,
                replicationFactor, consistency, bootstrapExpect, secret, tls, maxClockSkew);
    }

    public ClusterSettings withRpc(String bindAddress, int port) {
        return new ClusterSettings(nodeId, zone, capacity, bindAddress, port, advertisedAddress, seeds,
                replicationFactor, consistency, bootstrapExpect, secret, tls, maxClockSkew);
    }

    public ClusterSettings withSeeds(List<InetSocketAddress> newSeeds) {
        return new ClusterSettings(nodeId, zone, capacity, rpcBindAddress, rpcPort, advertisedAddress, newSeeds,
                replicationFactor, consistency, bootstrapExpect, secret, tls, maxClockSkew);
    }

    public ClusterSettings withReplication(int factor, Consistency mode) {
        return new ClusterSettings(nodeId, zone, capacity, rpcBindAddress, rpcPort, advertisedAddress, seeds,
                factor, mode, bootstrapExpect, secret, tls, maxClockSkew);
    }

    public ClusterSettings withBootstrapExpect(int nodes) {
        return new ClusterSettings(nodeId, zone, capacity, rpcBindAddress, rpcPort, advertisedAddress, seeds,
                replicationFactor, consistency, nodes, secret, tls, maxClockSkew);
    }

    public ClusterSettings withTls(@Nullable RpcTls settings) {
        return new ClusterSettings(nodeId, zone, capacity, rpcBindAddress, rpcPort, advertisedAddress, seeds,
                replicationFactor, consistency, bootstrapExpect, secret, settings, maxClockSkew);
    }

    public ClusterSettings withMaxClockSkew(Duration skew) {
        return new ClusterSettings(nodeId, zone, capacity, rpcBindAddress, rpcPort, advertisedAddress, seeds,
                replicationFactor, consistency, bootstrapExpect, secret, tls, skew);
    }

    /**
     * The address to announce, given the one the server actually bound. A wildcard bind address means
     * nothing to other nodes, so it is replaced by this host's address; set {@code advertisedAddress}
     * wherever that guess is wrong (containers, several interfaces).
     */
    public InetSocketAddress advertised(InetSocketAddress bound) {
        InetSocketAddress configured = advertisedAddress;
        if (configured != null) {
            return configured.getPort() == 0
                    ? InetSocketAddress.createUnresolved(configured.getHostString(), bound.getPort())
                    : configured;
        }
        if (bound.getAddress() != null && bound.getAddress().isAnyLocalAddress()) {
            try {
                return new InetSocketAddress(InetAddress.getLocalHost().getHostAddress(), bound.getPort());
            } catch (UnknownHostException e) {
                throw new IllegalStateException("cannot tell which address to advertise; set the advertised address", e);
            }
        }
        return bound;
    }

    /** Parses {@code HANGAR_CLUSTER_SEEDS}: comma-separated {@code host:port}, IPv6 hosts in brackets. */
    public static List<InetSocketAddress> parseSeeds(String text) {
        List<InetSocketAddress> seeds = new ArrayList<>();
        for (String part : text.split(",")) {
            String seed = part.trim();
            if (seed.isEmpty()) {
                continue;
            }
            int colon = seed.lastIndexOf(':');
            if (colon <= 0 || colon == seed.length() - 1) {
                throw new IllegalArgumentException("seed must be host:port: " + seed);
            }
            String host = seed.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int port;
            try {
                port = Integer.parseInt(seed.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("seed port is not a number: " + seed, e);
            }
            if (port < 1 || port > 0xffff) {
                throw new IllegalArgumentException("seed port must be between 1 and 65535: " + seed);
            }
            // Unresolved: a seed's name may not resolve yet when this node starts (containers).
            seeds.add(InetSocketAddress.createUnresolved(host, port));
        }
        return List.copyOf(seeds);
    }
}
