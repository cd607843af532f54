package dev.hangar.cluster;

import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.command.MetadataCommand;
import java.util.List;

/**
 * The replication policy of a node's metadata, as the rest of the node sees it: commands go in
 * through {@link #submit}, state comes out through {@link #state}, and both count the sequential
 * inter-node rounds they cost in {@link #stats}, so that the rounds metric means the same thing in
 * every mode. The single node, the leaderless cluster and the Raft mode implement it; nothing above
 * the cluster module knows which one it talks to.
 *
 * <p>Every mode applies commands with the same {@link dev.hangar.metadata.state.MetadataStateMachine};
 * they differ in where and when: in one local batch, at the coordinator over quorum reads and
 * mergeable writes, or on every member at commit.
 */
public interface Replication extends AutoCloseable {

    ReplicationMode mode();

    /**
     * Applies {@code command} under this policy; blocks until it is applied or refused.
     *
     * @throws dev.hangar.metadata.MetadataUnavailableException if too few replicas answered; the
     *     command may or may not take effect later
     */
    <R> Applied<R> submit(MetadataCommand<R> command);

    /**
     * The replicated metadata as a store: its reads at this policy's consistency, its mutations
     * through {@link #submit}. What the S3 layer is given.
     */
    MetadataStore state();

    /** Commands and reads this node coordinated, and their rounds, by kind. */
    ReplicationStats stats();

    /** The consensus groups of this policy, as this node sees them; none in the modes without consensus. */
    default List<ConsensusGroup> groups() {
        return List.of();
    }

    /** Closes what this policy owns; the node closes the stores it was built on. */
    @Override
    default void close() {}
}
