package dev.hangar.cluster.replication;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.NoSuchBlockException;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.Partitioning;
import dev.hangar.cluster.replication.BlockWire.Status;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
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
 * <p><b>In memory only</b>: a restart forgets the queue. That is safe (a missed copy is a missing
 * replica, not lost data, as long as the write quorum holds one) but not complete; the anti-entropy
 * scan of a later issue is the backstop, and {@link #add}, {@link #pending} and the task records are
 * the seam where a persistent log would go.
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
    private final @Nullable BlockStore local;
    private final BlockService service;
    private final BlockPeers peers;
    private final ReplicationConfig config;
    private final ConcurrentHashMap<Key, Task> tasks = new ConcurrentHashMap<>();
    private final Set<BlockId> handoffs = ConcurrentHashMap.newKeySet();
    private final LongAdder queued = new LongAdder();
    private @Nullable ScheduledExecutorService worker;

    ResyncQueue(NodeId self, Supplier<ClusterLayout> layout, @Nullable BlockStore local, BlockService service,
            BlockPeers peers, ReplicationConfig config) {
        this.self = self;
        this.layout = layout;
        this.local = local;
        this.service = service;
        this.peers = peers;
        this.config = config;
    }

    /** Queues a task, replacing any earlier one for the same block and target. Never blocks. */
    public void add(Task task) {
        tasks.put(new Key(task.block(), task.target()), task);
        queued.increment();
    }

    /** Forgets every copy of {@code block} still queued and any pending release of it (it was deleted). */
    void forgetCopies(BlockId block) {
        tasks.values().removeIf(task -> task instanceof Copy && task.block().equals(block));
        handoffs.remove(block);
    }

    /** The queued tasks, in no particular order. */
    public List<Task> pending() {
        return List.copyOf(tasks.values());
    }

    /** Local copies that a layout change moved away and that wait for their new owners to confirm. */
    public Set<BlockId> pendingReleases() {
        return Set.copyOf(handoffs);
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
     * current layout confirms it holds the block (an exists call) and this node is still not one of
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
                handoffs.add(stored.id());
            }
        });
        return copies[0];
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
                    tasks.remove(new Key(task.block(), task.target()), task);
                    if (task instanceof Copy) {
                        copied++;
                    } else {
                        deleted++;
                    }
                }
                case DROPPED -> {
                    tasks.remove(new Key(task.block(), task.target()), task);
                    dropped++;
                }
                case RETRY -> failed++;
            }
        }
        for (BlockId block : List.copyOf(handoffs)) {
            try {
                if (release(block, current)) {
                    released++;
                }
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.FINE, e, () -> "release of " + block + " failed; will retry");
            }
        }
        return new Report(copied, deleted, dropped, released, failed, tasks.size());
    }

    private Outcome copy(Copy task, ClusterLayout current) throws IOException {
        List<NodeId> replicas = current.replicas(Partitioning.of(current).partitionOfBlock(task.block().value()));
        if (!replicas.contains(task.target())) {
            return Outcome.DROPPED;
        }
        if (task.target().equals(self) ? local != null && local.exists(task.block())
                : Await.await(peers.exists(task.target(), task.block()), config.readTimeout())) {
            return Outcome.DONE;
        }
        List<NodeId> sources = new ArrayList<>(ReplicaOrder.closestFirst(current, self, replicas));
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
            service.store(task.block(), crc, data);
        } else {
            Await.await(peers.put(task.target(), new BlockRef(task.block(), data.length, crc), data),
                    config.writeTimeout());
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
        List<NodeId> owners = current.replicas(Partitioning.of(current).partitionOfBlock(block.value()));
        if (owners.contains(self)) {
            // Moved back (or never left): the copy is this node's to keep.
            handoffs.remove(block);
            return false;
        }
        if (owners.isEmpty() || local == null) {
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
        handoffs.remove(block);
        return true;
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

    /** Stops the background worker; queued tasks are forgotten with the queue. */
    @Override
    public void close() {
        ScheduledExecutorService executor;
        synchronized (this) {
            executor = worker;
            worker = null;
        }
        if (executor != null) {
            executor.shutdownNow();
        }
    }
}
