package dev.hangar.cluster.rpc;

import dev.hangar.cluster.layout.NodeId;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * A node to call: its id, which {@link NetworkFaults} rules are written against, and the address of
 * its RPC server.
 */
public record RpcPeer(NodeId id, InetSocketAddress address) {
    public RpcPeer {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(address, "address");
    }
}
