package dev.hangar.cluster.table;

import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcPeer;
import dev.hangar.cluster.rpc.RpcServer;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * Brings replicas of a table back in sync whatever they missed: writes acknowledged while a replica
 * was down or cut off, repairs that failed, entries no read ever touched.
 *
 * <p>Per (partition, peer): fetch the peer's {@link PartitionSummary} and compare roots (one round);
 * if they differ, send the peer this replica's entries of the differing leaves and receive its
 * entries of the same leaves in the answer (a second round), each side merging what it got. Merging
 * is idempotent, so sending entries the other side already has costs bandwidth, never correctness.
 *
 * <p>Partitions are synced one after the other, so a run costs the cluster one scan of one
 * partition at a time rather than a burst over the whole store.
 */
public final class AntiEntropy implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(AntiEntropy.class.getName());

    private final TableConfig config;
    private final NodeId self;
    private final Supplier<ClusterLayout> layout;
    private final RpcClient client;
    private final Function<NodeId, InetSocketAddress> addresses;
    private final LocalTable local;
    private final HybridLogicalClock clock;
    private final ExecutorService localExecutor = Executors.newVirtualThreadPerTaskExecutor();
    private @Nullable ScheduledExecutorService scheduler;

    /**
     * Anti-entropy for the table named in {@code config}; registers its methods on {@code server}.
     * {@code clock} is the table's: entries it would refuse as too far ahead are not merged here either.
     */
    public AntiEntropy(TableConfig config, NodeId self, Supplier<ClusterLayout> layout, RpcClient client,
            RpcServer server, Function<NodeId, InetSocketAddress> addresses, LocalTable local,
            HybridLogicalClock clock) {
        if (local.mergeRule() != config.mergeRule()) {
            throw new IllegalArgumentException("the local replica of table " + config.name()
                    + " merges by another rule than the table's");
        }
        this.config = config;
        this.self = self;
        this.layout = layout;
        this.client = client;
        this.addresses = addresses;
        this.local = local;
        this.clock = clock;
        server.register(config.method("summary"), (from, payload) ->
                CompletableFuture.completedFuture(Wire.summary(PartitionSummary.of(local, Wire.partition(payload)))));
        server.register(config.method("leaves"), (from, payload) -> {
            Wire.LeavesRequest request = Wire.leavesRequest(payload);
            // Read before merging: what the caller sent it already has.
            request.entries().forEach(entry -> clock.check(entry.timestamp()));
            List<Entry> ours = entriesOfLeaves(request.partition(), request.leaves());
            request.entries().forEach(local::merge);
            return CompletableFuture.completedFuture(Wire.entries(ours));
        });
    }

    /** Syncs every partition this node replicates with each of its other replicas. */
    public CompletableFuture<SyncStats> runOnce() {
        ClusterLayout current = layout.get();
        List<PartitionPeer> work = new ArrayList<>();
        for (int p = 0; p < current.partitions(); p++) {
            List<NodeId> replicas = current.replicas(p);
            if (replicas.contains(self)) {
                for (NodeId peer : replicas) {
                    if (!peer.equals(self)) {
                        work.add(new PartitionPeer(p, peer));
                    }
                }
            }
        }
        return runAll(work);
    }

    /**
     * Syncs every partition that this node and {@code peer} both replicate: for a node that comes
     * back, which should not wait for the next periodic run to get what it missed.
     */
    public CompletableFuture<SyncStats> syncWith(NodeId peer) {
        ClusterLayout current = layout.get();
        List<PartitionPeer> work = new ArrayList<>();
        for (int p = 0; p < current.partitions(); p++) {
            List<NodeId> replicas = current.replicas(p);
            if (!peer.equals(self) && replicas.contains(self) && replicas.contains(peer)) {
                work.add(new PartitionPeer(p, peer));
            }
        }
        return runAll(work);
    }

    /** Compares partition {@code partition} with {@code peer} and exchanges the entries of differing leaves. */
    public CompletableFuture<SyncStats> syncPartition(int partition, NodeId peer) {
        RpcPeer target = new RpcPeer(peer, addresses.apply(peer));
        CompletableFuture<PartitionSummary> ours = CompletableFuture.supplyAsync(
                () -> PartitionSummary.of(local, partition), localExecutor);
        CompletableFuture<PartitionSummary> theirs = client.call(target, config.method("summary"),
                        Wire.partition(partition), config.timeout())
                .thenApply(Wire::summary);
        return ours.thenCombine(theirs, PartitionSummary::differingLeaves)
                .thenComposeAsync(leaves -> {
                    if (leaves.length == 0) {
                        return CompletableFuture.completedFuture(new SyncStats(1, 0, 0, 0, 0, 0));
                    }
                    List<Entry> mine = entriesOfLeaves(partition, leaves);
                    return client.call(target, config.method("leaves"),
                                    Wire.leavesRequest(partition, leaves, mine), config.timeout())
                            .thenApplyAsync(payload -> {
                                List<Entry> received = Wire.entries(payload);
                                received.forEach(entry -> clock.check(entry.timestamp()));
                                received.forEach(local::merge);
                                return new SyncStats(1, 1, leaves.length, mine.size(), received.size(), 0);
                            }, localExecutor);
                }, localExecutor);
    }

    /** Runs {@link #runOnce} every {@code interval}, first after one interval. */
    public synchronized void start(Duration interval) {
        if (scheduler != null) {
            throw new IllegalStateException("already started");
        }
        ScheduledExecutorService started = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("anti-entropy-" + config.name()).factory());
        scheduler = started;
        started.scheduleWithFixedDelay(() -> {
            try {
                SyncStats stats = runOnce().join();
                LOG.fine(() -> "anti-entropy of " + config.name() + ": " + stats);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "anti-entropy of " + config.name() + " failed", e);
            }
        }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
        localExecutor.shutdown();
    }

    private record PartitionPeer(int partition, NodeId peer) {}

    // One pair after the other; an unreachable peer is counted and skipped, not fatal to the run.
    // One warning per run rather than per pair: a node that is down fails every one of its pairs.
    private CompletableFuture<SyncStats> runAll(List<PartitionPeer> work) {
        AtomicReference<@Nullable Throwable> firstFailure = new AtomicReference<>();
        CompletableFuture<SyncStats> chain = CompletableFuture.completedFuture(SyncStats.NONE);
        for (PartitionPeer item : work) {
            chain = chain.thenCompose(total -> syncPartition(item.partition(), item.peer())
                    .exceptionally(failure -> {
                        firstFailure.compareAndSet(null, failure);
                        return new SyncStats(0, 0, 0, 0, 0, 1);
                    })
                    .thenApply(total::plus));
        }
        return chain.whenComplete((stats, e) -> {
            Throwable failure = firstFailure.get();
            if (stats != null && failure != null) {
                LOG.log(Level.WARNING, "anti-entropy of " + config.name() + ": " + stats.failures()
                        + " partition syncs failed and wait for the next run; first failure: " + failure);
            }
        });
    }

    private List<Entry> entriesOfLeaves(int partition, byte[] leaves) {
        boolean[] wanted = new boolean[PartitionSummary.LEAVES];
        for (byte leaf : leaves) {
            wanted[leaf & 0xff] = true;
        }
        List<Entry> entries = new ArrayList<>();
        local.forEachInPartition(partition, entry -> {
            if (wanted[PartitionSummary.leafOf(entry)]) {
                entries.add(entry);
            }
        });
        return entries;
    }
}
