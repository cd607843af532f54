package dev.hangar.bench.consensus;

/**
 * The rounds docs/cluster.md says a request pays, per policy and coordinator role, against which the lab's
 * measurements are read ({@link ConsensusTable}) and the smoke test checks the benchmarks' roles.
 *
 * <p>Object calls ("Round trips per S3 operation", "The Raft mode"): leaderless, one round for every small-object
 * request through any node, a replica or not (a quorum write, or a quorum read), except that a PUT then reads its
 * bucket back from a quorum (two; "Bucket deletion against writes") and a conditional PUT reads the key first as
 * well (three). Raft: a command costs the append
 * through the group's leader, the forward and then the append from anywhere else; a read costs nothing on the leader
 * under its lease or with leader reads, a heartbeat round with read-index, and from elsewhere the forward to the
 * leader (plus the leader's heartbeat round for read-index from outside the group; a follower in read-index mode
 * does the ReadIndex itself, one round).
 *
 * <p>Settings reads: leaderless nodes serve them from a cache refreshed in the background, Raft members from their own
 * replica, and a Raft node outside the bucket's group (a gateway) from copies of what it read from the group's
 * leader, refreshed in the background too. A request pays for one only on a miss, which is not expected while
 * requests keep the cache warm: {@link #SETTINGS_WHEN_WARM}, and {@link #settingsOnMiss} what a cold one costs.
 */
final class ExpectedRounds {
    private ExpectedRounds() {}

    static int object(Policy policy, Role role, Operation operation) {
        return switch (policy) {
            case LEADERLESS -> switch (operation) {
                case PUT -> 2;
                case CONDITIONAL_PUT -> 3;
                default -> 1;
            };
            case RAFT_LEASE, RAFT_READ_INDEX, RAFT_LEADER -> operation.isCommand()
                    ? (role == Role.LEADER ? 1 : 2)
                    : raftRead(policy, role);
        };
    }

    /** The settings rounds of a request whose settings are cached, in every mode and role. */
    static final int SETTINGS_WHEN_WARM = 0;

    /** The settings rounds of a request that finds none of its settings cached: one read each (two, read-index). */
    static int settingsOnMiss(Policy policy, Role role, Operation operation) {
        return switch (policy) {
            case LEADERLESS -> operation.settingsReads();
            case RAFT_LEASE, RAFT_READ_INDEX, RAFT_LEADER ->
                    role == Role.GATEWAY ? operation.settingsReads() * raftRead(policy, role) : 0;
        };
    }

    private static int raftRead(Policy policy, Role role) {
        return switch (role) {
            case LEADER -> policy == Policy.RAFT_READ_INDEX ? 1 : 0;
            case FOLLOWER -> 1;
            case GATEWAY -> policy == Policy.RAFT_READ_INDEX ? 2 : 1;
        };
    }
}
