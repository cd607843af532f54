package dev.hangar.cluster.layout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One version of the partition layout: the node roles it was planned for and, for each partition,
 * the ordered list of its replicas.
 *
 * <p>Immutable; nodes converge on the layout with the highest {@code version}. The replica order is
 * the planner's and carries no meaning for correctness (readers pick the closest replica), but it is
 * kept so that every node sees the same table.
 *
 * @param version monotonically increasing; 0 is the empty layout before the first plan
 * @param partitions number of partitions the key space is split into
 * @param replicationFactor the wanted number of replicas; a partition has fewer only when there are
 *     fewer storage nodes
 * @param roles every node of the cluster, gateways included, sorted by id
 * @param assignment for each partition, its distinct replicas, all storage nodes of {@code roles}
 */
public record ClusterLayout(
        long version, int partitions, int replicationFactor, List<NodeRole> roles, List<List<NodeId>> assignment) {

    /** The number of partitions unless configured otherwise: enough to spread data evenly over a few dozen nodes. */
    public static final int DEFAULT_PARTITIONS = 256;

    public ClusterLayout {
        if (version < 0) {
            throw new IllegalArgumentException("version must not be negative");
        }
        if (partitions < 1 || partitions > 1 << 16) {
            throw new IllegalArgumentException("partitions must be between 1 and 65536: " + partitions);
        }
        if (replicationFactor < 1 || replicationFactor > 127) {
            throw new IllegalArgumentException("replication factor must be between 1 and 127: " + replicationFactor);
        }
        roles = roles.stream().sorted((a, b) -> a.id().compareTo(b.id())).toList();
        Map<NodeId, NodeRole> byId = new HashMap<>();
        for (NodeRole role : roles) {
            if (byId.put(role.id(), role) != null) {
                throw new IllegalArgumentException("node listed twice: " + role.id());
            }
        }
        if (assignment.size() != partitions) {
            throw new IllegalArgumentException(
                    "assignment has " + assignment.size() + " partitions, expected " + partitions);
        }
        List<List<NodeId>> copy = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            List<NodeId> replicas = List.copyOf(assignment.get(p));
            Set<NodeId> seen = new HashSet<>();
            for (NodeId node : replicas) {
                NodeRole role = byId.get(node);
                if (role == null || !role.isStorage()) {
                    throw new IllegalArgumentException("partition " + p + " is assigned to " + node
                            + ", which is not a storage node of the layout");
                }
                if (!seen.add(node)) {
                    throw new IllegalArgumentException("partition " + p + " lists " + node + " twice");
                }
            }
            if (replicas.size() > replicationFactor) {
                throw new IllegalArgumentException("partition " + p + " has more replicas than the replication factor");
            }
            copy.add(replicas);
        }
        assignment = List.copyOf(copy);
    }

    /** The layout before any plan: no nodes, no replicas. */
    public static ClusterLayout empty(int partitions, int replicationFactor) {
        return new ClusterLayout(0, partitions, replicationFactor, List.of(),
                Collections.nCopies(partitions, List.of()));
    }

    /** The replicas of one partition, in layout order. */
    public List<NodeId> replicas(int partition) {
        return assignment.get(partition);
    }

    /** The role of a node, if it belongs to the layout. */
    public Optional<NodeRole> role(NodeId node) {
        return roles.stream().filter(r -> r.id().equals(node)).findFirst();
    }

    /** How many partitions each storage node holds; nodes holding none are absent. */
    public Map<NodeId, Integer> partitionCounts() {
        Map<NodeId, Integer> counts = new TreeMap<>();
        for (List<NodeId> replicas : assignment) {
            for (NodeId node : replicas) {
                counts.merge(node, 1, Integer::sum);
            }
        }
        return counts;
    }

    /**
     * The (partition, replica) pairs of this layout that {@code previous} did not have: the copies a
     * change from {@code previous} to this layout must make. Partition counts must match.
     */
    public int movesFrom(ClusterLayout previous) {
        if (previous.partitions != partitions) {
            throw new IllegalArgumentException("layouts have different partition counts");
        }
        int moves = 0;
        for (int p = 0; p < partitions; p++) {
            Set<NodeId> before = new HashSet<>(previous.replicas(p));
            for (NodeId node : replicas(p)) {
                if (!before.contains(node)) {
                    moves++;
                }
            }
        }
        return moves;
    }
}
