package dev.hangar.cluster.membership;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.rpc.RpcPeer;
import java.util.Map;
import java.util.Set;

/**
 * What {@link Membership} needs from the layout side, so that the two can be built independently:
 * the local digest and cluster id to announce, the digests and cluster ids others announce, and the
 * membership view after each round of pings (for bootstrapping). Calls come from the membership
 * thread and RPC threads and must not block on the network.
 */
public interface LayoutGossip {
    /** The digest of the local layout, announced in every ping. */
    LayoutDigest localDigest();

    /** This node's cluster id, announced in every ping; "" until the first layout formed. */
    String clusterId();

    /**
     * {@code peer} announced cluster id {@code id} ("" for none yet).
     *
     * @throws ClusterMismatchException if this node belongs to another cluster
     */
    void heardClusterId(NodeId peer, String id);

    /**
     * {@code peer} runs the layout {@code digest}, which differs from ours; {@code members} are the
     * nodes this node knows through membership, itself included.
     */
    void announced(RpcPeer peer, LayoutDigest digest, Set<NodeId> members);

    /** The membership view after a round of pings, this node included. */
    void round(Map<NodeId, PeerStatus> statuses);

    /** For a node that tracks no layout (tests of membership alone). */
    static LayoutGossip none() {
        LayoutDigest none = new LayoutDigest(0, 0);
        return new LayoutGossip() {
            @Override
            public LayoutDigest localDigest() {
                return none;
            }

            @Override
            public String clusterId() {
                return "";
            }

            @Override
            public void heardClusterId(NodeId peer, String id) {}

            @Override
            public void announced(RpcPeer peer, LayoutDigest digest, Set<NodeId> members) {}

            @Override
            public void round(Map<NodeId, PeerStatus> statuses) {}
        };
    }
}
