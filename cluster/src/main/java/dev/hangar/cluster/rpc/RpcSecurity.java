package dev.hangar.cluster.rpc;

import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What an {@link RpcClient} and an {@link RpcServer} need to authenticate each connection.
 *
 * @param secret the cluster secret both ends must prove they know
 * @param tls TLS settings, or null for plain TCP (the handshake still authenticates, but traffic is
 *     readable on the network)
 * @param clusterId this node's cluster id as of now: empty until the node has one, after which a peer
 *     of another cluster is refused. Read at every handshake, since a joining node learns it later.
 */
public record RpcSecurity(ClusterSecret secret, @Nullable RpcTls tls, Supplier<String> clusterId) {
    public RpcSecurity {
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(clusterId, "clusterId");
    }

    /** Authentication by {@code secret} alone: no TLS, no cluster id (tests, benchmarks). */
    public static RpcSecurity of(ClusterSecret secret) {
        return new RpcSecurity(secret, null, () -> "");
    }

    public RpcSecurity withClusterId(Supplier<String> id) {
        return new RpcSecurity(secret, tls, id);
    }

    public RpcSecurity withTls(@Nullable RpcTls settings) {
        return new RpcSecurity(secret, settings, clusterId);
    }
}
