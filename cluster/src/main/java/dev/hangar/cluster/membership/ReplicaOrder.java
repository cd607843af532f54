package dev.hangar.cluster.membership;

import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Orders a partition's replicas for reading: those membership believes UP first, then SUSPECT ones,
 * then those it believes DOWN or does not know; closest first within each (this node, then its zone,
 * then the rest). Chunk reads ask the replicas one at a time in this order; table reads ask the read
 * quorum's worth at the head of it at once, and the next one for each that fails.
 *
 * <p>A replica that does not answer costs a whole call timeout before the next one is asked, so a
 * node known to be silent goes behind every node known to answer. It is never left out: membership
 * lags behind (a node that just restarted stays DOWN until it answers a ping), and it may hold the
 * only copy left.
 */
public final class ReplicaOrder {
    private ReplicaOrder() {}

    /**
     * {@code replicas} in the order to ask them. This node is always UP: it needs no ping to know it
     * runs. Every node given the same layout and statuses gives the same order, so the readers of a
     * partition in one zone prefer the same remote replicas and their caches stay warm.
     *
     * @param statuses every known node as membership sees it; a node missing from it counts as DOWN
     */
    public static List<NodeId> readOrder(ClusterLayout layout, NodeId self, List<NodeId> replicas,
            Map<NodeId, PeerStatus> statuses) {
        @Nullable String zone = layout.role(self).map(NodeRole::zone).orElse(null);
        // Each replica's rank read once: statuses may be a live view that changes during the sort.
        Map<NodeId, Integer> ranks = new HashMap<>();
        for (NodeId node : replicas) {
            ranks.put(node, reachability(self, statuses, node) * 3 + distance(layout, self, zone, node));
        }
        List<NodeId> ordered = new ArrayList<>(replicas);
        // Stable sort: within one class the layout's order stays, so nodes that see the same states agree.
        ordered.sort(Comparator.comparingInt(ranks::get));
        return ordered;
    }

    private static int reachability(NodeId self, Map<NodeId, PeerStatus> statuses, NodeId node) {
        if (node.equals(self)) {
            return 0;
        }
        PeerStatus status = statuses.get(node);
        if (status == null) {
            return 2;
        }
        return switch (status.state()) {
            case UP -> 0;
            // Missed a few pings: maybe only slow, so still before one that missed many.
            case SUSPECT -> 1;
            case DOWN -> 2;
        };
    }

    private static int distance(ClusterLayout layout, NodeId self, @Nullable String zone, NodeId node) {
        if (node.equals(self)) {
            return 0;
        }
        boolean sameZone = zone != null && layout.role(node).map(r -> r.zone().equals(zone)).orElse(false);
        return sameZone ? 1 : 2;
    }
}
