package dev.hangar.cluster;

import dev.hangar.blockstore.BlockStore;
import dev.hangar.metadata.MetadataStore;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one sync round of a node in batch mode ({@code SyncPolicy.batch}): every interval it forces
 * the blocks acknowledged so far ({@link BlockStore#sync}), and only then syncs the metadata
 * ({@link MetadataStore#sync}), whose stores were opened without sync threads of their own. So a
 * round never makes durable a metadata record written before it started that points to a block it
 * did not force first: chunk data is synced before the metadata that points to it. (A record
 * committed while the round forces blocks may reach the log sync ahead of its blocks, which the
 * next round forces; and the operating system may write back log pages on its own at any time.)
 *
 * <p>A round whose block sync fails does not sync the metadata: the block store then fails every
 * later write, and keeps the failure, which later rounds and {@link #close} throw again (only the
 * first is logged). Rounds never
 * overlap; {@link #close} stops the schedule and runs a last round before the stores are closed.
 */
final class NodeSync implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(NodeSync.class.getName());

    private final BlockStore blocks;
    private final MetadataStore metadata;
    private final ScheduledExecutorService executor;
    /** Whether a round has failed, so that only the first failure is logged; guarded by this. */
    private boolean failed;

    NodeSync(BlockStore blocks, MetadataStore metadata, Duration interval) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("sync interval must be positive: " + interval);
        }
        this.blocks = blocks;
        this.metadata = metadata;
        this.executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "hangar-node-sync");
            thread.setDaemon(true);
            return thread;
        });
        long nanos = interval.toNanos();
        executor.scheduleWithFixedDelay(this::scheduledRound, nanos, nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Forces the pending blocks, then, if that worked, syncs the metadata, on the caller's thread.
     *
     * @throws IOException if the blocks could not be forced (the metadata was then left unsynced)
     * @throws RuntimeException if the metadata could not be synced
     */
    synchronized void runRound() throws IOException {
        try {
            blocks.sync();
            metadata.sync();
        } catch (IOException | RuntimeException e) {
            if (!failed) {
                failed = true;
                LOG.log(Level.SEVERE, "sync of blocks and metadata failed; acknowledged writes may not be durable", e);
            }
            throw e;
        }
    }

    private void scheduledRound() {
        try {
            runRound();
        } catch (IOException | RuntimeException e) {
            // Logged and kept by runRound; a throw here would cancel every later round.
        }
    }

    /**
     * Stops the schedule, waits for a running round, and runs a last one.
     *
     * @throws IOException if the last round failed to force the blocks (both stores keep an earlier
     *     failure and throw it again, so a failed round is not forgotten)
     */
    @Override
    public void close() throws IOException {
        executor.shutdown();
        boolean interrupted = false;
        while (!executor.isTerminated()) {
            try {
                executor.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                // Not passed on to the round: an interrupt would close the channel being forced.
                interrupted = true;
            }
        }
        try {
            runRound();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
