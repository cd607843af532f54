package dev.hangar.cluster.rpc;

import dev.hangar.cluster.layout.NodeId;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * A node to call: its id, which {@link NetworkFaults} rules are written against, and the address of
 * its RPC server.
 *
 * @param identified whether {@code id} is the node's real id, which the server at {@code address}
 *     must then prove in the handshake; false for a seed, known only by its address, whose id is a
 *     placeholder and which any authenticated node may answer for
 */
public record RpcPeer(NodeId id, InetSocketAddress address, boolean identified) {
    public RpcPeer {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(address, "address");
    }

    /** Node {@code id} at {@code address}: only that node may answer. */
    public RpcPeer(NodeId id, InetSocketAddress address) {
        this(id, address, true);
    }

    /** A seed, whose id is not known yet: named {@code seed:host:port} in faults and errors. */
    public static RpcPeer seed(InetSocketAddress address) {
        return new RpcPeer(new NodeId("seed:" + address.getHostString() + ":" + address.getPort()), address, false);
    }
}
