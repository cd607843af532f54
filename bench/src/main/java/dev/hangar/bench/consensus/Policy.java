package dev.hangar.bench.consensus;

import dev.hangar.cluster.RaftSettings;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The replication policy a benchmarked cluster runs, as the {@code policy} parameter names it: leaderless quorums,
 * or Raft with one of its three ways of making a read linearizable ({@link RaftSettings.Reads}).
 */
enum Policy {
    LEADERLESS("leaderless", null),
    RAFT_LEASE("raft-lease", RaftSettings.Reads.LEASE),
    RAFT_READ_INDEX("raft-read-index", RaftSettings.Reads.READ_INDEX),
    RAFT_LEADER("raft-leader", RaftSettings.Reads.LEADER);

    private final String parameter;
    private final RaftSettings.@Nullable Reads reads;

    Policy(String parameter, RaftSettings.@Nullable Reads reads) {
        this.parameter = parameter;
        this.reads = reads;
    }

    static Policy parse(String parameter) {
        return Arrays.stream(values()).filter(policy -> policy.parameter.equals(parameter)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("policy must be one of "
                        + Arrays.stream(values()).map(Policy::toString).toList() + ", not " + parameter));
    }

    boolean isRaft() {
        return reads != null;
    }

    /**
     * The Raft settings of every node, or null for leaderless. Loopback, ports picked at start, and the product's
     * default expected round trip (100 ms: elections after 1–2 s of silence) whatever delay a trial injects, so that
     * the only thing that changes between the delay cells is the network; 50 ms one way is a 100 ms round trip,
     * which that default is made for.
     */
    @Nullable RaftSettings raftSettings() {
        return reads == null ? null : new RaftSettings("127.0.0.1", 0, reads, RaftSettings.DEFAULT_EXPECTED_RTT);
    }

    @Override
    public String toString() {
        return parameter;
    }
}
