package dev.hangar.cluster.membership;

import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import java.util.Set;

/**
 * The rules a layout from another node must meet before this node adopts it, beyond what {@link
 * ClusterLayout} itself guarantees (replicas are distinct storage nodes of the layout).
 *
 * <p>Adopting a layout is what makes a node move its data: it sends copies to the new owners and,
 * once they confirm, deletes its own. So a layout must leave no partition with fewer replicas than
 * the configured factor allows, and must not hand partitions to nodes nobody has heard of: every
 * node it names must be in the current layout or a member that joined through membership (which
 * only authenticated nodes can). A node without a layout yet (version 0) knows nothing to compare
 * with, and takes any well-formed layout from its authenticated peers.
 */
final class LayoutCheck {
    private LayoutCheck() {}

    /**
     * @throws RejectedLayoutException naming the first rule {@code candidate} breaks
     */
    static void requireAcceptable(ClusterLayout candidate, ClusterLayout current, Set<NodeId> members,
            int replicationFactor) {
        if (candidate.partitions() != current.partitions()) {
            throw new RejectedLayoutException("it has " + candidate.partitions() + " partitions, this node's layouts "
                    + current.partitions());
        }
        if (candidate.replicationFactor() != replicationFactor) {
            throw new RejectedLayoutException("it has replication factor " + candidate.replicationFactor()
                    + ", this node is configured for " + replicationFactor);
        }
        long storage = storageNodes(candidate);
        if (storage == 0) {
            throw new RejectedLayoutException("it has no storage node");
        }
        requireReplicasKept(candidate, current, replicationFactor);
        int wanted = (int) Math.min(replicationFactor, storage);
        for (int p = 0; p < candidate.partitions(); p++) {
            int replicas = candidate.replicas(p).size();
            if (replicas != wanted) {
                throw new RejectedLayoutException("partition " + p + " has " + replicas + " replicas, but " + storage
                        + " storage nodes at replication factor " + replicationFactor + " give every partition "
                        + wanted);
            }
        }
        if (current.version() == 0) {
            return;
        }
        for (NodeRole role : candidate.roles()) {
            if (current.role(role.id()).isEmpty() && !members.contains(role.id())) {
                throw new RejectedLayoutException("it names node " + role.id() + ", which is neither in layout version "
                        + current.version() + " nor a known member");
            }
        }
    }

    /**
     * A layout may not take storage nodes away below the replication factor: every partition would keep fewer
     * copies than the cluster had, and the nodes that lose their replicas delete them once the others confirm. A
     * forged layout that keeps one node would have the others release everything; an operator replacing a dead
     * node stages the new one in the same change. Growing, and layouts that stay at or above the factor, pass.
     *
     * @throws RejectedLayoutException if {@code candidate} has fewer storage nodes than both the factor and
     *     {@code current}
     */
    static void requireReplicasKept(ClusterLayout candidate, ClusterLayout current, int replicationFactor) {
        if (current.version() == 0) {
            return;
        }
        long before = storageNodes(current);
        long after = storageNodes(candidate);
        if (after < Math.min(replicationFactor, before)) {
            throw new RejectedLayoutException("it has " + after + " storage nodes where layout version "
                    + current.version() + " has " + before + ": every partition would keep " + after
                    + " of its replicas at replication factor " + replicationFactor + "; add a node in the same change"
                    + " that removes one");
        }
    }

    private static long storageNodes(ClusterLayout layout) {
        return layout.roles().stream().filter(NodeRole::isStorage).count();
    }
}
