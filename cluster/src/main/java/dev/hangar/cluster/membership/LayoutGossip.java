package dev.hangar.cluster.membership;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.rpc.RpcPeer;
import java.util.Map;

/**
 * What {@link Membership} needs from the layout side, so that the two can be built independently:
 * the local digest to announce, the digests others announce, and the membership view after each
 * round of pings (for bootstrapping). Calls come from the membership thread and RPC threads and must
 * not block.
 */
public interface LayoutGossip {
    /** The digest of the local layout, announced in every ping. */
    LayoutDigest localDigest();

    /** {@code peer} runs the layout {@code digest}, which differs from ours. */
    void announced(RpcPeer peer, LayoutDigest digest);

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
            public void announced(RpcPeer peer, LayoutDigest digest) {}

            @Override
            public void round(Map<NodeId, PeerStatus> statuses) {}
        };
    }
}
