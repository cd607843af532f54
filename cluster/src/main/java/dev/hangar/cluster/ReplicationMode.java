package dev.hangar.cluster;

import java.util.Locale;

/**
 * How a node's metadata is replicated: the policy behind {@link Replication}. Configured on cluster
 * nodes as {@code hangar.cluster.replication} ({@code leaderless}, the default); a node without
 * cluster settings is a {@link #SINGLE_NODE}.
 */
public enum ReplicationMode {
    /** A cluster of one: each command is one local RocksDB write batch. */
    SINGLE_NODE,
    /** Quorum writes of mergeable records through any coordinator, quorum reads with read repair. */
    LEADERLESS,
    /** Commands through a Raft log (Apache Ratis), applied at commit on every member. */
    RAFT;

    /**
     * The cluster mode a configuration value names.
     *
     * @throws IllegalArgumentException for anything else, naming the values accepted
     */
    public static ReplicationMode ofCluster(String value) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "leaderless" -> LEADERLESS;
            case "raft" -> RAFT;
            default -> throw new IllegalArgumentException(
                    "hangar.cluster.replication must be leaderless or raft, not " + value);
        };
    }
}
