package dev.hangar.cluster;

import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.state.Outcome;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A {@link Replication} whose commands a {@link MetadataStore} applies where this node stands: the
 * single node's RocksDB store (one batch), or the leaderless store (the state machine at this
 * coordinator, over quorum reads and mergeable writes). Counts each command's and read's rounds
 * from the {@link RoundTrips} tally the store's calls add to, and passes them on to the request's.
 */
public final class StoreReplication implements Replication {
    private final ReplicationMode mode;
    private final MetadataStore store;
    private final ReplicationStats stats;
    private final ReplicatedMetadata state;

    /** A policy without read repair: the single node. */
    public StoreReplication(ReplicationMode mode, MetadataStore store) {
        this(mode, store, () -> 0);
    }

    /** @param repairs records sent to stale replicas by reads so far, for {@link ReplicationStats#repairs} */
    public StoreReplication(ReplicationMode mode, MetadataStore store, LongSupplier repairs) {
        if (mode == ReplicationMode.RAFT) {
            throw new IllegalArgumentException("the Raft mode applies commands at commit, not through a store");
        }
        this.mode = Objects.requireNonNull(mode, "mode");
        this.store = Objects.requireNonNull(store, "store");
        this.stats = new ReplicationStats(repairs);
        this.state = new ReplicatedMetadata(this, store);
    }

    @Override
    public ReplicationMode mode() {
        return mode;
    }

    @Override
    public <R> Applied<R> submit(MetadataCommand<R> command) {
        RoundTrips.Tally own = new RoundTrips.Tally();
        Outcome<R> outcome;
        try (RoundTrips.Binding counting = RoundTrips.bind(own)) {
            outcome = store.apply(command);
        } finally {
            RoundTrips.current().addMetadata(own.metadata());
            stats.recordCommand(command.getClass().getSimpleName(), own.metadata());
        }
        return new Applied<>(outcome, mode == ReplicationMode.SINGLE_NODE, own.metadata());
    }

    /** Runs a read of the state, counting its rounds under {@code kind}. */
    <T> T read(String kind, Supplier<T> read) {
        RoundTrips.Tally own = new RoundTrips.Tally();
        try (RoundTrips.Binding counting = RoundTrips.bind(own)) {
            return read.get();
        } finally {
            RoundTrips.current().addMetadata(own.metadata());
            stats.recordRead(kind, own.metadata());
        }
    }

    @Override
    public MetadataStore state() {
        return state;
    }

    @Override
    public ReplicationStats stats() {
        return stats;
    }
}
