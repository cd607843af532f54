package dev.hangar.cluster.replication;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.NoSuchBlockException;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import dev.hangar.cluster.layout.Partitioning;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.membership.ReplicaOrder;
import dev.hangar.cluster.replication.BlockWire.Status;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * Copies (and deletes) that replicas missed, retried until they succeed, plus the local copies that
 * a layout change moved away and that wait to be released.
 *
 * <p><b>Durability</b>: with a {@link ResyncStore} on disk, tasks and pending releases outlive a
 * restart — the queue loads them when it is built and the next {@link #runOnce} continues them. The
 * map in memory stays what the worker reads; every change to it is mirrored to the store
 * asynchronously, in order per key, because tasks are queued from network I/O threads that must not
 * wait for a disk. So a crash can lose the tasks of the last few milliseconds, and can also keep a
 * task that had just completed: running it again is harmless (a copy finds the block present, a
 * delete of a missing block succeeds). A lost task leaves a replica short of a copy that the write
 * quorum still holds; no anti-entropy scan of blocks exists yet to find it. Without a store (a null
 * folder) the queue is in memory only and a restart forgets it.
 *
 * <p>Tasks are keyed by (block, target): a later task for the same pair replaces an earlier one, so
 * a delete overrides a copy that has not happened yet. {@link #runOnce} runs one pass; the background
 * worker ({@link ReplicationConfig#resyncInterval}) calls it periodically. Passes never overlap.
 */
public final class ResyncQueue implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ResyncQueue.class.getName());

    /** Work for one replica. */
    public sealed interface Task permits Copy, Delete {
        BlockId block();

        NodeId target();
    }

    /**
     * Copy a block to {@code target}. {@code crc32c} is null when the copy comes from a rebalance,
     * which knows sizes (from the store's listing) but not checksums; the copy is then checked only
     * in transit.
     */
    public record Copy(BlockId block, long size, @Nullable Integer crc32c, NodeId target) implements Task {
        static Copy of(BlockRef ref, NodeId target) {
            return new Copy(ref.id(), ref.size(), ref.crc32c(), target);
        }
    }

    /** Delete a block on {@code target}. */
    public record Delete(BlockId block, NodeId target) implements Task {}

    /**
     * What one pass did: tasks completed ({@code copied}, {@code deleted}), tasks dropped because
     * they no longer apply (target no longer a replica, block deleted everywhere), local copies
     * released after a layout change, tasks that failed and stay queued, and what is left.
     */
    public record Report(int copied, int deleted, int dropped, int released, int failed, int remaining) {}

    private record Key(BlockId block, NodeId target) {}

    private enum Outcome {
        DONE,
        DROPPED,
        RETRY
    }

    private final NodeId self;
    private final Supplier<ClusterLayout> layout;
    private final Supplier<Map<NodeId, PeerStatus>> statuses;
    private final @Nullable BlockStore local;
    private final BlockService service;
    private final BlockPeers peers;
    private final ReplicationConfig config;
    // Changes to both maps go through compute*, which holds the key's bin lock while the change is
    // handed to the store: the store then sees the changes of one key in the order the map did.
    private final ConcurrentHashMap<Key, Task> tasks = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<BlockId, Boolean> handoffs = new ConcurrentHashMap<>();
    private final LongAdder queued = new LongAdder();
    private final ResyncStore store;
    private @Nullable ScheduledExecutorService worker;

    /**
     * A queue that starts with what {@code store} holds and keeps it up to date; it owns the store. It
     * fetches a copy from the sources {@code statuses} shows up first ({@link ReplicaOrder}).
     */
    ResyncQueue(NodeId self, Supplier<ClusterLayout> layout, Supplier<Map<NodeId, PeerStatus>> statuses,
            @Nullable BlockStore local, BlockService service, BlockPeers peers, ReplicationConfig config,
            ResyncStore store) {
        this.self = self;
        this.layout = layout;
        this.statuses = statuses;
        this.local = local;
        this.service = service;
        this.peers = peers;
        this.config = config;
        this.store = store;
        ResyncStore.Contents loaded = store.load();
        for (Task task : loaded.tasks()) {
            tasks.put(keyOf(task), task);
        }
        for (BlockId block : loaded.releases()) {
            handoffs.put(block, Boolean.TRUE);
        }
    }

    /** Queues a task, replacing any earlier one for the same block and target. Never blocks. */
    public void add(Task task) {
        tasks.compute(keyOf(task), (key, previous) -> {
            if (!task.equals(previous)) {
                store.put(task);
            }
            return task;
        });
        queued.increment();
    }

    /** Forgets every copy of {@code block} still queued and any pending release of it (it was deleted). */
    void forgetCopies(BlockId block) {
        for (Key key : tasks.keySet()) {
            if (key.block().equals(block)) {
                tasks.computeIfPresent(key, (k, task) -> task instanceof Copy ? dropped(task) : task);
            }
        }
        clearRelease(block);
    }

    /** The queued tasks, in no particular order. */
    public List<Task> pending() {
        return List.copyOf(tasks.values());
    }

    /** Local copies that a layout change moved away and that wait for their new owners to confirm. */
    public Set<BlockId> pendingReleases() {
        return Set.copyOf(handoffs.keySet());
    }

    /** Tasks queued since the start, including those already done. */
    public long queuedTotal() {
        return queued.sum();
    }

    /**
     * Queues, for every block of the local store whose partition gained replicas from {@code
     * previous} to {@code next}, a copy to each new replica, and marks for release the local copies of
     * partitions this node no longer holds. Returns the number of copies queued.
     *
     * <p>A released copy is deleted by a later {@link #runOnce} only when every replica of the then
     * current layout confirms it holds the block (an exists call), those replicas are a whole replica
     * set of storage nodes of that layout ({@link #fullReplicaSet}), and this node is still not one of
     * them: checking all replicas rather than only the new ones means a copy never goes while the
     * block has fewer than its replication factor of confirmed copies.
     */
    public int rebalance(ClusterLayout previous, ClusterLayout next) throws IOException {
        BlockStore store = local;
        if (store == null) {
            return 0;
        }
        if (previous.partitions() != next.partitions()) {
            throw new IllegalArgumentException("layouts have different partition counts");
        }
        Partitioning partitioning = Partitioning.of(next);
        int[] copies = {0};
        store.forEachBlock(stored -> {
            int partition = partitioning.partitionOfBlock(stored.id().value());
            Set<NodeId> before = new HashSet<>(previous.replicas(partition));
            List<NodeId> after = next.replicas(partition);
            for (NodeId owner : after) {
                if (!before.contains(owner) && !owner.equals(self)) {
                    add(new Copy(stored.id(), stored.size(), null, owner));
                    copies[0]++;
                }
            }
            if (!after.contains(self)) {
                awaitRelease(stored.id());
            }
        });
        return copies[0];
    }

    /**
     * Queues what {@link #rebalance} would have for a block that landed here only after the
     * rebalance for {@code current} listed the local store: its writer chose the replicas under an
     * older layout. A copy to every other owner in {@code current} (an owner that has it already is
     * confirmed by one exists call), and the release of the local copy if this node no longer owns the
     * block. Never blocks.
     */
    void landedLate(BlockRef block, ClusterLayout current) {
        List<NodeId> owners = ReplicatedBlockStore.replicasIn(current, block.id());
        for (NodeId owner : owners) {
            if (!owner.equals(self)) {
                add(Copy.of(block, owner));
            }
        }
        if (!owners.contains(self)) {
            awaitRelease(block.id());
        }
    }

    /** Runs one pass over the queue and the pending releases. */
    public synchronized Report runOnce() {
        int copied = 0, deleted = 0, dropped = 0, released = 0, failed = 0;
        ClusterLayout current = layout.get();
        for (Task task : List.copyOf(tasks.values())) {
            Outcome outcome;
            try {
                outcome = switch (task) {
                    case Copy copy -> copy(copy, current);
                    case Delete delete -> delete(delete);
                };
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.FINE, e, () -> "resync of " + task + " failed; will retry");
                outcome = Outcome.RETRY;
            }
            switch (outcome) {
                case DONE -> {
                    finish(task);
                    if (task instanceof Copy) {
                        copied++;
                    } else {
                        deleted++;
                    }
                }
                case DROPPED -> {
                    finish(task);
                    dropped++;
                }
                case RETRY -> failed++;
            }
        }
        for (BlockId block : List.copyOf(handoffs.keySet())) {
            try {
                if (release(block, current)) {
                    released++;
                }
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.FINE, e, () -> "release of " + block + " failed; will retry");
            }
        }
        Report report = new Report(copied, deleted, dropped, released, failed, tasks.size());
        // A pass that moved blocks is what an operator looks for; passes that did nothing, or only retried
        // copies to a node still down (every pass while it is), are routine.
        boolean progressed = copied + deleted + dropped + released > 0;
        LOG.log(progressed ? Level.INFO : Level.FINE, () -> "block resync: " + report);
        return report;
    }

    private Outcome copy(Copy task, ClusterLayout current) throws IOException {
        List<NodeId> replicas = ReplicatedBlockStore.replicasIn(current, task.block());
        if (!replicas.contains(task.target())) {
            return Outcome.DROPPED;
        }
        if (task.target().equals(self) ? local != null && local.exists(task.block())
                : Await.await(peers.exists(task.target(), task.block()), config.readTimeout())) {
            return Outcome.DONE;
        }
        List<NodeId> sources = new ArrayList<>(ReplicaOrder.readOrder(current, self, replicas, statuses.get()));
        sources.remove(task.target());
        if (local != null && !sources.contains(self)) {
            sources.addFirst(self);
        }
        byte[] data = fetch(task, sources);
        if (data == null) {
            // Every source answered that it has no copy: the block was deleted meanwhile.
            return Outcome.DROPPED;
        }
        int crc = BlockService.crc32c(data);
        if (task.target().equals(self)) {
            service.store(task.block(), crc, data, current.version());
        } else {
            BlockRef ref = new BlockRef(task.block(), data.length, crc);
            Await.await(peers.put(task.target(), ref, data, current.version()), config.writeTimeout());
        }
        return Outcome.DONE;
    }

    /** The block from the first source that has an intact copy; null if every source said it has none. */
    private byte @Nullable [] fetch(Copy task, List<NodeId> sources) throws IOException {
        Integer crc = task.crc32c();
        BlockWire.Get get = new BlockWire.Get(task.block(), 0, task.size(),
                crc == null ? null : new BlockRef(task.block(), task.size(), crc));
        boolean unsure = false;
        for (NodeId source : sources) {
            if (source.equals(self)) {
                BlockStore store = local;
                if (store == null) {
                    continue;
                }
                try {
                    return BlockService.readLocal(store, get);
                } catch (NoSuchBlockException missing) {
                    continue;
                } catch (IOException | IndexOutOfBoundsException e) {
                    unsure = true;
                    continue;
                }
            }
            try {
                BlockWire.GetReply reply = Await.await(peers.get(source, get), config.readTimeout());
                if (reply.status() == Status.FOUND) {
                    return reply.data();
                }
                unsure |= reply.status() != Status.MISSING;
            } catch (IOException e) {
                unsure = true;
            }
        }
        if (unsure) {
            throw new IOException("no source of block " + task.block() + " could be read");
        }
        return null;
    }

    private Outcome delete(Delete task) throws IOException {
        if (task.target().equals(self)) {
            if (local != null) {
                local.delete(task.block());
            }
        } else {
            Await.await(peers.delete(task.target(), task.block()), config.writeTimeout());
        }
        return Outcome.DONE;
    }

    private boolean release(BlockId block, ClusterLayout current) throws IOException {
        List<NodeId> owners = ReplicatedBlockStore.replicasIn(current, block);
        if (owners.contains(self)) {
            // Moved back (or never left): the copy is this node's to keep.
            clearRelease(block);
            return false;
        }
        if (local == null || !fullReplicaSet(owners, current)) {
            return false;
        }
        List<CompletableFuture<Boolean>> confirmations = owners.stream()
                .map(owner -> peers.exists(owner, block))
                .toList();
        for (CompletableFuture<Boolean> confirmation : confirmations) {
            if (!Await.await(confirmation, config.readTimeout())) {
                return false;
            }
        }
        local.delete(block);
        clearRelease(block);
        return true;
    }

    /**
     * Whether {@code owners} are a whole replica set of {@code layout}: as many as its storage nodes
     * and replication factor give a partition, each a storage node of the layout. {@link ClusterLayout}
     * already guarantees the second; checking it here keeps the rule beside the one place that
     * deletes a copy on other nodes' word. Those words come only from the owners themselves: the RPC
     * client sends an exists call to a node only once the server at its address proved that node id
     * with the cluster secret.
     */
    static boolean fullReplicaSet(List<NodeId> owners, ClusterLayout layout) {
        long storage = layout.roles().stream().filter(NodeRole::isStorage).count();
        if (owners.isEmpty() || owners.size() < Math.min(layout.replicationFactor(), storage)) {
            return false;
        }
        return owners.stream().allMatch(owner -> layout.role(owner).filter(NodeRole::isStorage).isPresent());
    }

    private static Key keyOf(Task task) {
        return new Key(task.block(), task.target());
    }

    /** Removes {@code task} unless a newer task for its block and target replaced it meanwhile. */
    private void finish(Task task) {
        tasks.computeIfPresent(keyOf(task), (key, current) -> current.equals(task) ? dropped(current) : current);
    }

    // Only from inside a compute* on tasks, so that the store sees the removal in map order.
    private @Nullable Task dropped(Task task) {
        store.remove(task);
        return null;
    }

    private void awaitRelease(BlockId block) {
        handoffs.computeIfAbsent(block, b -> {
            store.putRelease(b);
            return Boolean.TRUE;
        });
    }

    private void clearRelease(BlockId block) {
        handoffs.computeIfPresent(block, (b, pending) -> {
            store.removeRelease(b);
            return null;
        });
    }

    /** Starts the background worker; a zero interval starts none. */
    synchronized void start(Duration interval) {
        if (interval.isZero() || worker != null) {
            return;
        }
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "hangar-resync-" + self);
            thread.setDaemon(true);
            return thread;
        });
        long millis = Math.max(1, interval.toMillis());
        executor.scheduleWithFixedDelay(() -> {
            try {
                runOnce();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "resync pass failed", e);
            }
        }, millis, millis, TimeUnit.MILLISECONDS);
        worker = executor;
    }

    /**
     * Stops the background worker, waits briefly for a pass under way, and closes the store once the
     * changes made so far are in it. Without a store, queued tasks are forgotten with the queue.
     */
    @Override
    public void close() {
        ScheduledExecutorService executor;
        synchronized (this) {
            executor = worker;
            worker = null;
        }
        if (executor != null) {
            executor.shutdownNow();
            try {
                // A pass interrupted while waiting on a replica ends quickly; its last removals
                // should still reach the store.
                executor.awaitTermination(config.writeTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        store.close();
    }
}
