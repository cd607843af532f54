package dev.hangar.cluster;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockStore;
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

/**
 * Frees the blocks that metadata mutations queued. Blocks are deleted before their queue entries are
 * forgotten, so a crash in between only repeats an idempotent delete on the next pass.
 *
 * <p>A block that a request of this node is still reading ({@link ReaderLeases}) stays queued: the
 * pass skips it, and its last reader asks for another pass when it closes its stream.
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
    private final ScheduledExecutorService executor;
    private final AtomicBoolean passScheduled = new AtomicBoolean();

    BlockReclaimer(MetadataStore metadata, BlockStore blocks, Duration interval) {
        this.metadata = metadata;
        this.blocks = blocks;
        this.leases = new ReaderLeases(this::reclaimSoon);
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
