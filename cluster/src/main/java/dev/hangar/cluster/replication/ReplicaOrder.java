package dev.hangar.cluster.replication;

import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Orders a partition's replicas closest first: this node, then its zone, then the rest. */
final class ReplicaOrder {
    private ReplicaOrder() {}

    static List<NodeId> closestFirst(ClusterLayout layout, NodeId self, List<NodeId> replicas) {
        @Nullable String zone = layout.role(self).map(NodeRole::zone).orElse(null);
        List<NodeId> ordered = new ArrayList<>(replicas);
        // Stable sort: within one distance class the layout's order stays, so every node agrees.
        ordered.sort(Comparator.comparingInt(node -> distance(layout, self, zone, node)));
        return ordered;
    }

    private static int distance(ClusterLayout layout, NodeId self, @Nullable String zone, NodeId node) {
        if (node.equals(self)) {
            return 0;
        }
        boolean sameZone = zone != null && layout.role(node).map(r -> r.zone().equals(zone)).orElse(false);
        return sameZone ? 1 : 2;
    }
}
