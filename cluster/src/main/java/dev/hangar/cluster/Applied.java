package dev.hangar.cluster;

import dev.hangar.metadata.state.Outcome;
import java.util.Objects;

/**
 * What submitting one command through a {@link Replication} gave the caller.
 *
 * @param outcome the command's result, or why it was refused
 * @param exactlyOnce whether the outcome is that of one atomic application to the whole replicated
 *     state, so that its conditions (preconditions, Object Lock) held at that point for every
 *     coordinator: true on a single node and in Raft mode; false in the leaderless mode, where they
 *     were checked against this coordinator's quorum read and a write through another node may
 *     have raced it
 * @param rounds the sequential inter-node rounds the command cost this node (0 on a single node)
 */
public record Applied<R>(Outcome<R> outcome, boolean exactlyOnce, int rounds) {
    public Applied {
        Objects.requireNonNull(outcome, "outcome");
        if (rounds < 0) {
            throw new IllegalArgumentException("rounds must not be negative");
        }
    }
}
