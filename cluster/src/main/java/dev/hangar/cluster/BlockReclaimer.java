package dev.hangar.cluster;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.metadata.MetadataStore;
import java.io.IOException;
import java.time.Duration;
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
 */
final class BlockReclaimer implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(BlockReclaimer.class.getName());
    private static final int BATCH = 1_000;

    private final MetadataStore metadata;
    private final BlockStore blocks;
    private final ScheduledExecutorService executor;
    private final AtomicBoolean passScheduled = new AtomicBoolean();

    BlockReclaimer(MetadataStore metadata, BlockStore blocks, Duration interval) {
        this.metadata = metadata;
        this.blocks = blocks;
        this.executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "hangar-block-reclaimer");
            thread.setDaemon(true);
            return thread;
        });
        long millis = interval.toMillis();
        executor.scheduleWithFixedDelay(this::runPass, 0, millis, TimeUnit.MILLISECONDS);
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

    /** Runs one full pass now, on the caller's thread; returns how many blocks were freed. */
    int reclaimNow() {
        int freed = 0;
        List<BlockId> batch;
        while (!(batch = metadata.pendingGarbage(BATCH)).isEmpty()) {
            for (BlockId id : batch) {
                try {
                    blocks.delete(id);
                } catch (IOException e) {
                    LOG.log(Level.WARNING, "could not free block " + id + "; will retry", e);
                    return freed;
                }
            }
            metadata.forgetGarbage(batch);
            freed += batch.size();
        }
        return freed;
    }

    private void runPass() {
        passScheduled.set(false);
        try {
            reclaimNow();
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
