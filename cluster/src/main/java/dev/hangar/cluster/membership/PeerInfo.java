package dev.hangar.cluster.membership;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import java.net.InetSocketAddress;
import java.util.Objects;

/** What a node tells others about itself: its role and where its RPC server listens. */
public record PeerInfo(NodeId id, String zone, long capacity, InetSocketAddress address) {
    public PeerInfo {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(address, "address");
        new NodeRole(id, zone, capacity); // validates zone and capacity
    }

    public NodeRole role() {
        return new NodeRole(id, zone, capacity);
    }
}
