package dev.hangar.cluster.table;

import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Orders a partition's replicas for reading: closest first. */
final class ReplicaSet {
    private ReplicaSet() {}

    /**
     * The replicas of {@code partition}, self first when it is one (no network at all), then those in
     * self's zone (a LAN round trip), then the rest in layout order, so that every reader of a
     * partition in one zone prefers the same remote replicas and their caches stay warm.
     */
    static List<NodeId> closestFirst(ClusterLayout layout, int partition, NodeId self) {
        List<NodeId> replicas = new ArrayList<>(layout.replicas(partition));
        Optional<String> zone = layout.role(self).map(NodeRole::zone);
        Comparator<NodeId> order = Comparator.comparingInt(node -> node.equals(self) ? 0
                : zone.isPresent() && layout.role(node).map(NodeRole::zone).equals(zone) ? 1 : 2);
        replicas.sort(order); // stable: layout order within each group
        return replicas;
    }
}
