package dev.hangar.bench.consensus;

import dev.hangar.cluster.layout.NodeId;
import java.util.Objects;

/**
 * Which node plays each {@link Role} for one bucket, as observed on a running cluster.
 *
 * @param bucket the bucket the requests go to
 * @param leader Raft: the node that leads the bucket's group; leaderless: the first replica of the partition that holds
 *     the bucket's objects (in the leaderless mode no replica has a special part: "leader" and "follower" are two
 *     replicas, so that both cells measure a coordinator that holds a copy)
 * @param follower Raft: another member of the group; leaderless: another replica
 * @param gateway the node of capacity 0, which holds no replica and is a member of no group
 */
record Placement(String bucket, NodeId leader, NodeId follower, NodeId gateway) {
    Placement {
        Objects.requireNonNull(bucket, "bucket");
        if (leader.equals(follower) || leader.equals(gateway) || follower.equals(gateway)) {
            throw new IllegalArgumentException("three roles need three nodes: " + leader + ", " + follower + ", "
                    + gateway);
        }
    }

    NodeId node(Role role) {
        return switch (role) {
            case LEADER -> leader;
            case FOLLOWER -> follower;
            case GATEWAY -> gateway;
        };
    }
}
