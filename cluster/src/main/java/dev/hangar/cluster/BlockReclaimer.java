package dev.hangar.cluster;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.metadata.MetadataStore;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * Frees the blocks that metadata mutations queued. Blocks are deleted before their queue entries are
 * forgotten, so a crash in between only repeats an idempotent delete on the next pass.
 *
 * <p>A block that a request of this node is still reading ({@link ReaderLeases}) stays queued: the
 * pass skips it, and its last reader asks for another pass when it closes its stream. On a cluster
 * node the other nodes are asked too ({@link PeerReaders}) before a batch goes: a block a peer's read
 * holds stays queued for a later pass (the peer does not say when its read ends: the next pass, on
 * the interval or after the next mutation through this node, asks again), and while a peer that
 * must be asked does not answer, nothing of the batch is freed.
 */
final class BlockReclaimer implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(BlockReclaimer.class.getName());
    private static final int BATCH = 1_000;
    /**
     * How long a pass waits for the metadata lookups of reads begun before it; a lookup that takes
     * longer (a cluster node waiting out a replica's timeout) leaves the batch to the next pass.
     */
    static final Duration READER_WAIT = Duration.ofSeconds(30);

    private final MetadataStore metadata;
    private final BlockStore blocks;
    private final ReaderLeases leases;
    private final PeerReaders peers;
    private final ScheduledExecutorService executor;
    private final AtomicBoolean passScheduled = new AtomicBoolean();
    /** The peers the last pass could not ask, so that an outage is logged once, not at every pass. */
    private volatile List<NodeId> lastUnreachable = List.of();

    /** A single node's reclaimer: its own reads are the only ones. */
    BlockReclaimer(MetadataStore metadata, BlockStore blocks, Duration interval) {
        this(metadata, blocks, null, PeerReaders.NONE, interval);
    }

    /**
     * @param leases this node's reads, created by the caller (who serves them to other nodes) with a
     *     listener that calls {@link #reclaimSoon}; null to create them here
     * @param peers the reads of the other nodes
     */
    BlockReclaimer(MetadataStore metadata, BlockStore blocks, @Nullable ReaderLeases leases, PeerReaders peers,
            Duration interval) {
        this.metadata = metadata;
        this.blocks = blocks;
        this.leases = leases != null ? leases : new ReaderLeases(this::reclaimSoon);
        this.peers = peers;
        this.executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "hangar-block-reclaimer");
            thread.setDaemon(true);
            return thread;
        });
        long millis = interval.toMillis();
        executor.scheduleWithFixedDelay(this::runPass, 0, millis, TimeUnit.MILLISECONDS);
    }

    /** The leases of this node's reads, which this reclaimer honours. */
    ReaderLeases leases() {
        return leases;
    }

    void reclaimSoon() {
        if (passScheduled.compareAndSet(false, true)) {
            try {
                executor.execute(this::runPass);
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                passScheduled.set(false);
            }
        }
    }

    /**
     * Runs one full pass now, on the caller's thread; returns how many blocks were freed. The pass
     * ends when the queue is empty or a batch freed nothing (every block in it is being read).
     */
    int reclaimNow() throws InterruptedException {
        int freed = 0;
        List<BlockId> batch;
        while (!(batch = metadata.pendingGarbage(BATCH)).isEmpty()) {
            // Every block of the batch was unreachable before this barrier (queued with the mutation
            // that removed it): only reads begun earlier can have found it.
            long barrier = leases.barrier();
            if (!leases.awaitReadersBefore(barrier, READER_WAIT)) {
                LOG.info("reads begun " + READER_WAIT + " ago are still looking up metadata; reclamation waits "
                        + "for the next pass");
                return freed;
            }
            List<BlockId> free = new ArrayList<>(batch.size());
            for (BlockId id : batch) {
                if (!leases.deferIfLeased(id)) {
                    free.add(id);
                }
            }
            if (!free.isEmpty() && !withoutPeerReads(free)) {
                return freed;
            }
            for (BlockId id : free) {
                try {
                    blocks.delete(id);
                } catch (IOException e) {
                    LOG.log(Level.WARNING, "could not free block " + id + "; will retry", e);
                    return freed;
                }
            }
            metadata.forgetGarbage(free);
            freed += free.size();
            if (free.isEmpty()) {
                return freed;
            }
        }
        return freed;
    }

    /**
     * Removes from {@code free} the blocks that reads of other nodes hold. False if some peer could not be
     * asked: then nothing may be freed, since its reads may hold any of them.
     */
    private boolean withoutPeerReads(List<BlockId> free) {
        PeerReaders.Answer answer = peers.held(free);
        List<NodeId> unreachable = answer.unreachable();
        if (!unreachable.equals(lastUnreachable)) {
            lastUnreachable = unreachable;
            if (unreachable.isEmpty()) {
                LOG.info("every node answers again: queued blocks are freed");
            } else {
                LOG.info("blocks queued for freeing wait: nodes " + unreachable + " cannot be asked which of them"
                        + " their reads hold (a node silent for longer than the configured wait counts as gone)");
            }
        }
        if (!answer.complete()) {
            return false;
        }
        free.removeAll(answer.held());
        return true;
    }

    private void runPass() {
        passScheduled.set(false);
        try {
            reclaimNow();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "block reclamation pass failed; will retry", e);
        }
    }

    /**
     * Waits for the passes already scheduled to end, the one every reclaimer runs as it starts included: a test
     * that queues garbage for a reclaimer of its own must not have this one free it first. For tests.
     */
    void awaitScheduledPasses() throws InterruptedException {
        try {
            executor.submit(() -> { }).get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    @Override
    public void close() {
        executor.shutdown();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
