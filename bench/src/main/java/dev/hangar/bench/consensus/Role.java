package dev.hangar.bench.consensus;

import java.util.Arrays;
import java.util.Locale;

/**
 * Which node coordinates the benchmarked requests, as the {@code role} parameter names it, relative to the
 * benchmark bucket. {@link Placement} says which node that is under each policy.
 */
enum Role {
    /** Raft: the leader of the bucket's group. Leaderless: the first replica of the bucket's objects partition. */
    LEADER,
    /** Raft: another member of the bucket's group. Leaderless: another replica of the bucket's objects partition. */
    FOLLOWER,
    /** A node of capacity 0: it holds no replica of anything and is a member of no group. */
    GATEWAY;

    static Role parse(String parameter) {
        return Arrays.stream(values()).filter(role -> role.toString().equals(parameter)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("role must be leader, follower or gateway, not "
                        + parameter));
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
