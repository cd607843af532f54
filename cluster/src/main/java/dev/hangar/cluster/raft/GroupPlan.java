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
 * <p>What a partition holds in this mode: a whole bucket (its record, configuration, objects, versions and
 * uploads, by the partition of the bucket's name) or the access keys (one partition). A bucket in one group
 * makes listings, the bucket-not-empty check and every conditional write a single group's linearizable
 * operation; the price is that one bucket's writes go through one leader.
 */
record GroupPlan(long layoutVersion, Partitioning partitioning, List<Group> byPartition) {
    /** The route of the access keys: no bucket is named with a zero byte. */
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
            List<NodeId> replicas = layout.replicas(partition);
            if (replicas.isEmpty()) {
                throw new IllegalArgumentException("layout v" + layout.version() + " has no replica for partition "
                        + partition);
            }
            List<NodeId> members = new ArrayList<>();
            members.add(replicas.getFirst());
            replicas.stream().skip(1).sorted().forEach(members::add);
            String name = String.join(",", members.stream().map(NodeId::value).toList());
            byPartition.add(groups.computeIfAbsent(name, key -> new Group(RaftGroupId.valueOf(
                    UUID.nameUUIDFromBytes(("hangar-raft-group:" + key).getBytes(StandardCharsets.UTF_8))), members)));
        }
        return new GroupPlan(layout.version(), Partitioning.of(layout), byPartition);
    }

    /** The distinct groups, in partition order of first appearance. */
    Collection<Group> groups() {
        Map<RaftGroupId, Group> distinct = new LinkedHashMap<>();
        for (Group group : byPartition) {
            distinct.putIfAbsent(group.id(), group);
        }
        return distinct.values();
    }

    /** The group of a route: a bucket name, or {@link #ACCESS_KEYS}. */
    Group groupOf(String route) {
        return byPartition.get(partitioning.partitionOfBytes(route.getBytes(StandardCharsets.UTF_8)));
    }
}
