package dev.hangar.cluster;

import dev.hangar.blockstore.BlockStore;
import dev.hangar.metadata.MetadataStore;
import java.util.Optional;

/**
 * The storage service that the S3 layer calls: the metadata and blocks of the whole cluster, as
 * seen from this node.
 *
 * <p>A node started without cluster settings is a cluster of one, whose stores are the local ones.
 * A cluster node hands out stores of the same interfaces that reach the right nodes, so the S3 layer
 * does not change with the replication policy.
 */
public interface ClusterNode extends AutoCloseable {

    /**
     * How this node's metadata is replicated: commands in, state out, rounds counted. Its {@link
     * Replication#state() state} is {@link #metadata()}.
     */
    Replication replication();

    /** The metadata the S3 layer reads and changes: {@link #replication()}'s state. */
    default MetadataStore metadata() {
        return replication().state();
    }

    BlockStore blocks();

    /** Compaction and scrub of the stored data: their schedule, progress, and runs on demand. */
    StorageMaintenance maintenance();

    /**
     * The leases of the reads this node serves: a read that {@linkplain ReaderLeases#begin begins}
     * before its metadata lookup and holds the blocks it found until its stream closes keeps them
     * from this node's reclamation, whatever mutation made them unreachable meanwhile.
     */
    ReaderLeases leases();

    /**
     * Asks for blocks queued by a metadata mutation to be freed soon; the S3 layer calls this after
     * overwriting or deleting something, so that space comes back without waiting for the next sweep.
     */
    void reclaimSoon();

    /**
     * The cluster control plane (membership and layout) when the node was started with cluster
     * settings; empty for a plain cluster of one.
     */
    default Optional<ClusterControl> control() {
        return Optional.empty();
    }

    /** The replicated stores behind {@link #metadata} and {@link #blocks} on a cluster node; empty for a cluster of one. */
    default Optional<ReplicationView> replicas() {
        return Optional.empty();
    }

    @Override
    void close();
}
