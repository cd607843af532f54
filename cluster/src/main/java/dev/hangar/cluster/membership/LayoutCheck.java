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
        long storage = candidate.roles().stream().filter(NodeRole::isStorage).count();
        if (storage == 0) {
            throw new RejectedLayoutException("it has no storage node");
        }
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
}
