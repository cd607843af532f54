package dev.hangar.cluster.membership;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import java.util.Map;
import java.util.Set;

/**
 * Role changes waiting for the next apply: nodes to add or change, and nodes to remove.
 *
 * @param roles new or changed roles, by node id
 * @param removals nodes to take out of the layout
 */
public record StagedChanges(Map<NodeId, NodeRole> roles, Set<NodeId> removals) {
    public static final StagedChanges NONE = new StagedChanges(Map.of(), Set.of());

    public StagedChanges {
        roles = Map.copyOf(roles);
        removals = Set.copyOf(removals);
    }

    public boolean isEmpty() {
        return roles.isEmpty() && removals.isEmpty();
    }
}
