package dev.hangar.cluster.raft;

import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.Partitioning;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.ratis.protocol.RaftGroupId;

/**
 * The Raft groups of a layout: one per distinct replica set together with its first replica, so that 3 nodes
 * make 3 groups (each node the preferred leader of one) and 5 nodes at replication factor 3 at most 30, not
 * one per partition. Each partition belongs to the group of its replicas.
 *
 * <p>The routing is fixed when the groups form, on the first layout: a partition stays in the group of the
 * replicas it had then, and so does every committed command about it. A later layout changes who the members of each
 * group are ({@link #reconfigured}): the replicas one of its partitions has in that layout. Ratis moves
 * the state to new members (its log, or a snapshot) and the members agree on each membership change in the log,
 * so no committed command is lost; no bucket moves between groups.
 *
 * <p>What a partition holds in this mode: a whole bucket (its record, configuration, objects, versions and
 * uploads, by the partition of the bucket's name) or the access keys and the service configurations (one partition). A bucket in one group
 * makes listings, the bucket-not-empty check and every conditional write a single group's linearizable
 * operation; the price is that one bucket's writes go through one leader.
 */
record GroupPlan(long layoutVersion, Partitioning partitioning, List<Group> byPartition) {
    /** The route of the access keys and the service configurations: no bucket is named with a zero byte. */
    static final String ACCESS_KEYS = "\u0000access-keys";

    /**
     * One Raft group.
     *
     * @param members the replicas, the preferred leader first (highest Ratis priority)
     */
    record Group(RaftGroupId id, List<NodeId> members) {
        Group {
            members = List.copyOf(members);
        }

        NodeId preferredLeader() {
            return members.getFirst();
        }

        boolean hasMember(NodeId node) {
            return members.contains(node);
        }
    }

    GroupPlan {
        byPartition = List.copyOf(byPartition);
    }

    static GroupPlan of(ClusterLayout layout) {
        Map<String, Group> groups = new LinkedHashMap<>();
        List<Group> byPartition = new ArrayList<>(layout.partitions());
        for (int partition = 0; partition < layout.partitions(); partition++) {
            List<NodeId> members = members(layout, partition);
            String name = String.join(",", members.stream().map(NodeId::value).toList());
            byPartition.add(groups.computeIfAbsent(name, key -> new Group(RaftGroupId.valueOf(
                    UUID.nameUUIDFromBytes(("hangar-raft-group:" + key).getBytes(StandardCharsets.UTF_8))), members)));
        }
        return new GroupPlan(layout.version(), Partitioning.of(layout), byPartition);
    }

    /**
     * The same groups and routing with members from {@code layout}; call it on the plan as formed ({@link #of}), so
     * that it is a function of the formation and the layout alone and every node plans the same members. Each group
     * takes the replicas of one of the partitions routed to it; the groups choose in turn, each the replica set with
     * (1) the most nodes no earlier group has, (2) the most members the group had when formed, (3) the most of its
     * partitions. Its preferred leader is then a member that leads no earlier group, if one does not: the one it was
     * formed with, or the set's first replica, or the first by id. Leaders and members spread over the nodes, few
     * members change, and the number of groups stays.
     *
     * @throws IllegalArgumentException if {@code layout} has another number of partitions, or none of the replicas
     */
    GroupPlan reconfigured(ClusterLayout layout) {
        if (layout.partitions() != byPartition.size()) {
            throw new IllegalArgumentException("layout v" + layout.version() + " has " + layout.partitions()
                    + " partitions, the Raft groups were formed on " + byPartition.size());
        }
        // For each group, the distinct replica sets of its partitions (sorted), how many have each, and a first
        // replica each was seen with.
        Map<RaftGroupId, Map<List<NodeId>, int[]>> counts = new LinkedHashMap<>();
        Map<List<NodeId>, NodeId> firstReplica = new java.util.HashMap<>();
        for (int partition = 0; partition < byPartition.size(); partition++) {
            List<NodeId> replicas = members(layout, partition);
            List<NodeId> set = replicas.stream().sorted().toList();
            firstReplica.putIfAbsent(set, replicas.getFirst());
            counts.computeIfAbsent(byPartition.get(partition).id(), id -> new LinkedHashMap<>())
                    .computeIfAbsent(set, key -> new int[1])[0]++;
        }
        java.util.Set<NodeId> leaders = new java.util.HashSet<>();
        java.util.Set<NodeId> used = new java.util.HashSet<>();
        Map<RaftGroupId, Group> chosen = new LinkedHashMap<>();
        for (Group formed : groups()) {
            List<NodeId> best = null;
            long bestScore = Long.MIN_VALUE;
            for (Map.Entry<List<NodeId>, int[]> candidate : counts.get(formed.id()).entrySet()) {
                List<NodeId> set = candidate.getKey();
                long score = (set.stream().filter(node -> !used.contains(node)).count() << 40)
                        + (set.stream().filter(formed.members()::contains).count() << 32)
                        + candidate.getValue()[0];
                if (score > bestScore) {
                    best = set;
                    bestScore = score;
                }
            }
            List<NodeId> set = best;
            NodeId leader = java.util.stream.Stream.of(formed.preferredLeader(), firstReplica.get(set))
                    .filter(node -> set.contains(node) && !leaders.contains(node)).findFirst()
                    .or(() -> set.stream().filter(node -> !leaders.contains(node)).findFirst())
                    .orElse(firstReplica.get(set));
            List<NodeId> members = new ArrayList<>();
            members.add(leader);
            set.stream().filter(node -> !node.equals(leader)).forEach(members::add);
            leaders.add(leader);
            used.addAll(set);
            chosen.put(formed.id(), new Group(formed.id(), members));
        }
        List<Group> routed = new ArrayList<>(byPartition.size());
        for (Group group : byPartition) {
            routed.add(chosen.get(group.id()));
        }
        return new GroupPlan(layout.version(), partitioning, routed);
    }

    // A partition's replicas as a group's members: its first replica (the preferred leader), then the others sorted.
    private static List<NodeId> members(ClusterLayout layout, int partition) {
        List<NodeId> replicas = layout.replicas(partition);
        if (replicas.isEmpty()) {
            throw new IllegalArgumentException("layout v" + layout.version() + " has no replica for partition "
                    + partition);
        }
        List<NodeId> members = new ArrayList<>();
        members.add(replicas.getFirst());
        replicas.stream().skip(1).sorted().forEach(members::add);
        return members;
    }

    /** The distinct groups, in partition order of first appearance. */
    Collection<Group> groups() {
        Map<RaftGroupId, Group> distinct = new LinkedHashMap<>();
        for (Group group : byPartition) {
            distinct.putIfAbsent(group.id(), group);
        }
        return distinct.values();
    }

    /** The group with this id; null if there is none. */
    Group group(RaftGroupId id) {
        for (Group group : byPartition) {
            if (group.id().equals(id)) {
                return group;
            }
        }
        return null;
    }

    /** The group of a route: a bucket name, or {@link #ACCESS_KEYS}. */
    Group groupOf(String route) {
        return byPartition.get(partitioning.partitionOfBytes(route.getBytes(StandardCharsets.UTF_8)));
    }
}
