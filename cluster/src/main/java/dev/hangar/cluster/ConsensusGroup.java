package dev.hangar.cluster;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One consensus group of the node's replication policy as this node sees it, in neutral terms (no mechanism's
 * types): what {@code /actuator/cluster}, the metrics and the health check show in the Raft mode.
 *
 * @param id the group's id
 * @param members the member nodes, the preferred leader first
 * @param member whether this node is one of them; if not, the fields below are unknown (-1, null)
 * @param role this node's role in it: {@code leader}, {@code follower}, {@code candidate} or {@code none}
 * @param leader the leader this node knows of, or null when it knows none (an election, or no reachable leader)
 * @param term the current term
 * @param commitIndex the index of the last entry this node knows to be committed
 * @param appliedIndex the index of the last entry this node applied to its state
 */
public record ConsensusGroup(String id, List<String> members, boolean member, String role, @Nullable String leader,
        long term, long commitIndex, long appliedIndex) {
    public ConsensusGroup {
        Objects.requireNonNull(id, "id");
        members = List.copyOf(members);
        Objects.requireNonNull(role, "role");
    }

    /** Whether this node is a member that knows the group's leader. */
    public boolean hasLeader() {
        return leader != null;
    }
}
