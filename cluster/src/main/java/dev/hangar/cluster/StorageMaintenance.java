package dev.hangar.cluster;

import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.CompactionReport;
import dev.hangar.metadata.MetadataStore;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * A node's background care of its stored data: compaction of packed segment files, and the scrub
 * ({@link Scrub}) that finds corrupt and missing blocks and removes orphans. Each runs on a daemon
 * thread of its own, every interval of its {@link MaintenanceConfig}, and on demand; two
 * compactions or two scrubs never overlap, and a scrub, which may take hours at its rate, never
 * holds up a compaction.
 *
 * <p>The node closes this before its stores. Closing never interrupts a running pass (an interrupt
 * would close file channels that client reads share): a scrub stops between two blocks, a
 * compaction pass is waited for.
 */
public final class StorageMaintenance implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(StorageMaintenance.class.getName());

    private final MetadataStore metadata;
    private final BlockStore blocks;
    private final ReaderLeases leases;
    private final MaintenanceConfig config;
    private final boolean scrubs;
    private final Clock clock;
    private final ScheduledExecutorService compactor;
    private final ScheduledExecutorService scrubber;
    /** Released once, on close: running and queued passes stop at their next step. */
    private final CountDownLatch stop = new CountDownLatch(1);
    /** Whether a scrub is running or submitted, so that a second one is refused rather than queued. */
    private final AtomicBoolean scrubbing = new AtomicBoolean();
    private final AtomicLong completedScrubs = new AtomicLong();
    private final WritesInFlight writes = new WritesInFlight();

    private volatile @Nullable Scrub latest;
    private volatile @Nullable Instant lastCompleted;
    private volatile @Nullable String lastError;

    /** @param leases the node's reads, whose blocks a scrub does not remove */
    StorageMaintenance(MetadataStore metadata, BlockStore blocks, ReaderLeases leases, MaintenanceConfig config,
            Clock clock) {
        this(metadata, blocks, leases, config, clock, true);
    }

    /**
     * With {@code scrubs} false the node never scrubs: a cluster node's metadata replica names only
     * part of the blocks it stores, so its scrub would take the others for orphans.
     */
    StorageMaintenance(MetadataStore metadata, BlockStore blocks, ReaderLeases leases, MaintenanceConfig config,
            Clock clock, boolean scrubs) {
        this.scrubs = scrubs;
        this.metadata = metadata;
        this.blocks = blocks;
        this.leases = leases;
        this.config = config;
        this.clock = clock;
        this.compactor = daemonThread("hangar-compaction");
        this.scrubber = daemonThread("hangar-scrub");
        if (!config.compactionInterval().isZero()) {
            long millis = config.compactionInterval().toMillis();
            compactor.scheduleWithFixedDelay(this::scheduledCompaction, millis, millis, TimeUnit.MILLISECONDS);
        }
        if (scrubs && !config.scrubInterval().isZero()) {
            scrubber.scheduleWithFixedDelay(this::scheduledScrub, config.firstScrubDelay().toMillis(),
                    config.scrubInterval().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    public MaintenanceConfig config() {
        return config;
    }

    /**
     * The writes in flight on this node: whatever writes blocks and then commits metadata that references
     * them registers here for that time, or a scrub may take its blocks for orphans.
     */
    public WritesInFlight writesInFlight() {
        return writes;
    }

    /**
     * Runs a compaction pass now, on the compaction thread, and waits for it.
     *
     * @throws IOException if the pass failed
     * @throws IllegalStateException if the node is closing
     */
    public CompactionReport compactNow() throws IOException {
        Future<CompactionReport> pass;
        try {
            pass = compactor.submit(this::compact);
        } catch (RejectedExecutionException e) {
            throw new IllegalStateException("the node is closing", e);
        }
        try {
            return pass.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the compaction", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * Starts a scrub now, on the scrub thread, removing orphans older than {@code orphanGrace}
     * (rather than the configured grace: zero, say, when nothing is being written). The future
     * completes with the scrub's final progress, or with its failure.
     *
     * @return empty if a scrub is running already
     * @throws IllegalStateException if the node is closing
     * @throws UnsupportedOperationException on a cluster node, which does not scrub (yet)
     */
    public Optional<CompletableFuture<ScrubProgress>> startScrub(Duration orphanGrace) {
        if (!scrubs) {
            throw new UnsupportedOperationException("a cluster node does not scrub yet: its metadata replica "
                    + "names only part of the blocks it stores; blocks are still verified on every read");
        }
        if (orphanGrace.isNegative()) {
            throw new IllegalArgumentException("orphan grace must not be negative: " + orphanGrace);
        }
        if (!scrubbing.compareAndSet(false, true)) {
            return Optional.empty();
        }
        CompletableFuture<ScrubProgress> done = new CompletableFuture<>();
        try {
            scrubber.execute(() -> {
                try {
                    scrub(orphanGrace);
                    done.complete(scrubProgress());
                } catch (Throwable failure) {
                    done.completeExceptionally(failure);
                }
            });
        } catch (RejectedExecutionException e) {
            scrubbing.set(false);
            throw new IllegalStateException("the node is closing", e);
        }
        return Optional.of(done);
    }

    /** What the running scrub has done so far, or the latest one did. */
    public ScrubProgress scrubProgress() {
        Scrub scrub = latest;
        if (scrub == null) {
            return ScrubProgress.NONE;
        }
        return scrub.progress(scrubbing.get(), lastCompleted, completedScrubs.get(), lastError);
    }

    private CompactionReport compact() throws IOException {
        CompactionReport report = blocks.compact();
        if (report.segmentsCompacted() > 0) {
            LOG.info(() -> "compaction removed " + report.segmentsCompacted() + " segment files, moved "
                    + report.chunksMoved() + " live chunks and gave back " + report.bytesReclaimed() + " bytes");
        }
        return report;
    }

    private void scheduledCompaction() {
        try {
            compact();
        } catch (IOException | RuntimeException e) {
            // Logged, not thrown: a throw would cancel every later pass.
            LOG.log(Level.WARNING, "compaction failed; the next pass retries", e);
        }
    }

    private void scheduledScrub() {
        if (!scrubbing.compareAndSet(false, true)) {
            return;
        }
        try {
            scrub(config.orphanGrace());
        } catch (Throwable failure) {
            // Logged by scrub(); a throw would cancel every later scrub.
        }
    }

    /** Runs a scrub on the calling thread (the scrub thread), which has set {@link #scrubbing}. */
    private void scrub(Duration orphanGrace) throws IOException {
        try {
            Instant started = clock.instant();
            // Read after the start: a write that begins later stamps its blocks later than the start anyway.
            Instant oldestWrite = writes.oldestStart().orElse(null);
            Scrub scrub = new Scrub(metadata, blocks, leases, config.scrubBytesPerSecond(), orphanGrace, started,
                    oldestWrite, stop);
            lastError = null;
            latest = scrub;
            LOG.info(() -> "scrub started: every referenced block is read back at most at "
                    + (config.scrubBytesPerSecond() == 0 ? "full speed" : config.scrubBytesPerSecond() + " bytes/s")
                    + "; orphans older than " + orphanGrace + " are removed");
            scrub.run();
            Instant completed = clock.instant();
            lastCompleted = completed;
            completedScrubs.incrementAndGet();
            ScrubProgress done = scrub.progress(false, completed, completedScrubs.get(), null);
            LOG.info(() -> "scrub finished in " + Duration.between(scrub.started(), completed) + ": "
                    + done.blocksChecked() + " blocks (" + done.bytesChecked() + " bytes) checked, "
                    + done.corruptBlocks() + " corrupt, " + done.missingBlocks() + " missing, "
                    + done.failedChecks() + " unreadable, " + done.orphansRemoved() + " orphans removed");
        } catch (Scrub.Stopped stopped) {
            lastError = "stopped: " + stopped.getMessage();
            throw stopped;
        } catch (IOException | RuntimeException e) {
            lastError = String.valueOf(e);
            LOG.log(Level.WARNING, "scrub failed; the next one starts over", e);
            throw e;
        } finally {
            scrubbing.set(false);
        }
    }

    /** Stops the schedules, lets a running scrub stop at its next block, and waits for both threads. */
    @Override
    public void close() {
        stop.countDown();
        compactor.shutdown();
        scrubber.shutdown();
        boolean interrupted = false;
        for (ScheduledExecutorService executor : new ScheduledExecutorService[] {compactor, scrubber}) {
            while (!executor.isTerminated()) {
                try {
                    executor.awaitTermination(1, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    // Not passed on: an interrupt would close file channels that other reads share.
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static ScheduledExecutorService daemonThread(String name) {
        return Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        });
    }
}
