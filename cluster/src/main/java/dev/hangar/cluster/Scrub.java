package dev.hangar.cluster;

import dev.hangar.blockstore.BlockHealth;
import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.StoredBlock;
import dev.hangar.metadata.MetadataStore;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * One full scrub, run on the calling thread: reads back every block the metadata references,
 * comparing it with its recorded size and CRC32C, at most {@code bytesPerSecond}; then removes the
 * blocks that nothing references and that were written at least {@code orphanGrace} before the
 * scrub began.
 *
 * <p>It goes in four steps:
 *
 * <ol>
 *   <li>count the stored blocks, to size a {@link BlockBloomFilter} (skipped, and orphans are not
 *       looked for, if the store cannot list its blocks);
 *   <li>walk the references ({@link MetadataStore#forEachBlockReference}, one snapshot of the
 *       metadata), adding each id to the filter and checking its block;
 *   <li>confirm the blocks found missing with a second walk: an object deleted after the first
 *       walk's snapshot loses its blocks without anything being wrong, so a block counts as
 *       missing only if the metadata still references it;
 *   <li>list the stored blocks again and remove those the filter has never seen and that are older
 *       than the cut-off ({@link #orphanCutoff}). The first walk saw the metadata as it was when it
 *       began, after the scrub began; a block written before the cut-off and still unreferenced by
 *       then is one whose write was never committed (a crash, or a chunk deleted just before one
 *       came back). A write still in flight when the scrub began may commit after that snapshot, so
 *       the cut-off is never later than its start ({@link WritesInFlight}): how long an upload takes
 *       does not matter, and a grace of zero removes no block a PUT is about to commit. Nor does it
 *       remove a block a reader of this node holds ({@link ReaderLeases}): an overwrite queues the
 *       blocks it replaced for the reclaimer, which defers those being read, but no metadata refers
 *       to them any more and the walk takes them for orphans. The check waits first for the readers
 *       that began before it and are still looking up metadata, as the reclaimer does: any reader
 *       that found such a block began before the walk's snapshot, since none could find it after.
 * </ol>
 *
 * <p>A block that several versions share is checked once per version. The scrub stops between two
 * blocks when {@code stop} is released; it never interrupts a read, since an interrupted read would
 * close a file channel that other readers share.
 */
final class Scrub {
    private static final Logger LOG = Logger.getLogger(Scrub.class.getName());
    /** Blocks found missing are kept for the second walk, up to this many; any more count unconfirmed. */
    private static final int MAX_MISSING_CANDIDATES = 100_000;
    /**
     * No block written less than this before the scrub began (or before the oldest write then in flight) is
     * removed, whatever the configured or requested grace, zero included. Writes stamp their start with a
     * precise clock and file systems stamp blocks with a coarse one (Linux: to the timer tick, FAT: to 2 s);
     * this margin, far above that granularity and above small clock adjustments, keeps a write that began
     * just after the scrub from having its first block taken as older than the scrub.
     */
    static final Duration MINIMUM_ORPHAN_AGE = Duration.ofMinutes(1);

    private final MetadataStore metadata;
    private final BlockStore blocks;
    private final ReaderLeases leases;
    private final long bytesPerSecond;
    private final Duration orphanGrace;
    private final Instant started;
    private final @Nullable Instant oldestWriteInFlight;
    private final CountDownLatch stop;

    private final AtomicLong blocksChecked = new AtomicLong();
    private final AtomicLong bytesChecked = new AtomicLong();
    private final AtomicLong corruptBlocks = new AtomicLong();
    private final AtomicLong missingBlocks = new AtomicLong();
    private final AtomicLong failedChecks = new AtomicLong();
    private final AtomicLong orphansRemoved = new AtomicLong();

    /**
     * @param oldestWriteInFlight when the oldest write in flight at {@code started} began ({@link
     *     WritesInFlight}), or null if none was
     */
    Scrub(MetadataStore metadata, BlockStore blocks, ReaderLeases leases, long bytesPerSecond, Duration orphanGrace,
            Instant started, @Nullable Instant oldestWriteInFlight, CountDownLatch stop) {
        this.metadata = metadata;
        this.blocks = blocks;
        this.leases = leases;
        this.bytesPerSecond = bytesPerSecond;
        this.orphanGrace = orphanGrace;
        this.started = started;
        this.oldestWriteInFlight = oldestWriteInFlight;
        this.stop = stop;
    }

    /**
     * The write time before which an unreferenced block is an orphan: the grace before the start, but never
     * after the start of a write that was in flight then (its blocks may be committed after the walk's
     * snapshot), and never less than {@link #MINIMUM_ORPHAN_AGE} before either, whatever the grace.
     */
    static Instant orphanCutoff(Instant started, Duration orphanGrace, @Nullable Instant oldestWriteInFlight) {
        Instant cutoff = earlier(started.minus(orphanGrace), started.minus(MINIMUM_ORPHAN_AGE));
        if (oldestWriteInFlight != null) {
            cutoff = earlier(cutoff, oldestWriteInFlight.minus(MINIMUM_ORPHAN_AGE));
        }
        return cutoff;
    }

    private static Instant earlier(Instant first, Instant second) {
        return first.isBefore(second) ? first : second;
    }

    /** Thrown out of a walk when the node closes; the scrub ends without completing. */
    static final class Stopped extends RuntimeException {
        Stopped() {
            super("the node is closing", null, false, false);
        }
    }

    Instant started() {
        return started;
    }

    /**
     * Runs the whole scrub.
     *
     * @throws Stopped if the node began to close meanwhile
     * @throws IOException if the blocks could not be listed
     */
    void run() throws IOException {
        BlockBloomFilter referenced = countedFilter();
        Map<BlockId, BlockRef> missing = new HashMap<>();
        Pacer pacer = new Pacer(bytesPerSecond, System.nanoTime());
        metadata.forEachBlockReference(ref -> {
            stopIfAsked();
            if (referenced != null) {
                referenced.add(ref.id());
            }
            check(ref, missing);
            pace(pacer, ref.size());
        });
        confirmMissing(missing);
        if (referenced != null) {
            removeOrphans(referenced);
        }
    }

    /** A filter sized for the blocks stored now, with room to grow; null if the store cannot list them. */
    private @Nullable BlockBloomFilter countedFilter() throws IOException {
        long[] count = {0};
        try {
            blocks.forEachBlock(block -> {
                stopIfAsked();
                count[0]++;
            });
        } catch (UnsupportedOperationException e) {
            LOG.info(() -> "the block store cannot list its blocks: the scrub checks references but removes no orphans");
            return null;
        }
        return BlockBloomFilter.forExpected(count[0] + count[0] / 4);
    }

    private void check(BlockRef ref, Map<BlockId, BlockRef> missing) {
        BlockHealth health = checkOrCount(ref);
        if (health == null) {
            return;
        }
        switch (health) {
            case INTACT -> {}
            case CORRUPT -> reportCorrupt(ref);
            case MISSING -> {
                if (missing.size() < MAX_MISSING_CANDIDATES) {
                    missing.put(ref.id(), ref);
                } else {
                    reportMissing(ref, " (not confirmed: too many missing blocks to confirm them all)");
                }
            }
        }
    }

    /** Checks a block and counts it as checked; null, counted as failed, if it could not be read. */
    private @Nullable BlockHealth checkOrCount(BlockRef ref) {
        BlockHealth health;
        try {
            health = blocks.check(ref);
        } catch (IOException | RuntimeException e) {
            stopIfAsked();
            failedChecks.incrementAndGet();
            LOG.log(Level.WARNING, "scrub could not read block " + ref.id(), e);
            return null;
        }
        blocksChecked.incrementAndGet();
        if (health != BlockHealth.MISSING) {
            bytesChecked.addAndGet(ref.size());
        }
        return health;
    }

    /** Counts as missing only the blocks that the metadata still references now. */
    private void confirmMissing(Map<BlockId, BlockRef> candidates) {
        if (candidates.isEmpty()) {
            return;
        }
        Set<BlockId> stillReferenced = new HashSet<>();
        metadata.forEachBlockReference(ref -> {
            stopIfAsked();
            if (candidates.containsKey(ref.id())) {
                stillReferenced.add(ref.id());
            }
        });
        for (BlockId id : stillReferenced) {
            stopIfAsked();
            BlockRef ref = candidates.get(id);
            BlockHealth again;
            try {
                again = blocks.check(ref);
            } catch (IOException | RuntimeException e) {
                failedChecks.incrementAndGet();
                LOG.log(Level.WARNING, "scrub could not read block " + id, e);
                continue;
            }
            switch (again) {
                case MISSING -> reportMissing(ref, "");
                case CORRUPT -> reportCorrupt(ref);
                case INTACT -> {}
            }
        }
    }

    private void removeOrphans(BlockBloomFilter referenced) throws IOException {
        // After the walk's snapshot: a reader that found a block the walk did not see began before this barrier.
        long barrier = leases.barrier();
        try {
            if (!leases.awaitReadersBefore(barrier, BlockReclaimer.READER_WAIT)) {
                LOG.info(() -> "reads begun " + BlockReclaimer.READER_WAIT + " ago are still looking up metadata; "
                        + "this scrub removes no orphans, the next one retries");
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Stopped();
        }
        Instant cutoff = orphanCutoff(started, orphanGrace, oldestWriteInFlight);
        blocks.forEachBlock(stored -> {
            stopIfAsked();
            if (referenced.mightContain(stored.id()) || !stored.writtenAt().isBefore(cutoff)) {
                return;
            }
            if (leases.leased(stored.id())) {
                LOG.fine(() -> "scrub keeps unreferenced block " + stored.id() + ": a read holds it");
                return;
            }
            removeOrphan(stored);
        });
    }

    private void removeOrphan(StoredBlock orphan) {
        try {
            blocks.delete(orphan.id());
        } catch (IOException e) {
            LOG.log(Level.WARNING, "scrub could not remove orphan block " + orphan.id() + "; the next scrub retries", e);
            return;
        }
        orphansRemoved.incrementAndGet();
        LOG.info(() -> "scrub removed orphan block " + orphan.id() + " (" + orphan.size() + " bytes, written "
                + orphan.writtenAt() + "): no object version or upload references it");
    }

    private void reportCorrupt(BlockRef ref) {
        corruptBlocks.incrementAndGet();
        LOG.severe(() -> String.format(
                "scrub found block %s corrupt: its bytes do not match the size %d and CRC32C %08x that the metadata"
                        + " records; the object it belongs to cannot be read whole",
                ref.id(), ref.size(), ref.crc32c()));
    }

    private void reportMissing(BlockRef ref, String note) {
        missingBlocks.incrementAndGet();
        LOG.severe(() -> "scrub found block " + ref.id() + " (" + ref.size() + " bytes) missing although the"
                + " metadata references it" + note + "; the object it belongs to cannot be read whole");
    }

    private void pace(Pacer pacer, long bytes) {
        long wait = pacer.waitAfter(bytes, System.nanoTime());
        if (wait > 0) {
            try {
                if (stop.await(wait, TimeUnit.NANOSECONDS)) {
                    throw new Stopped();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Stopped();
            }
        }
    }

    private void stopIfAsked() {
        if (stop.getCount() == 0) {
            throw new Stopped();
        }
    }

    /** This scrub's counts, with what the caller knows about it and the scrubs before. */
    ScrubProgress progress(boolean running, @Nullable Instant lastCompleted, long completedScrubs,
            @Nullable String error) {
        return new ScrubProgress(running, started, lastCompleted, completedScrubs, blocksChecked.get(),
                bytesChecked.get(), corruptBlocks.get(), missingBlocks.get(), failedChecks.get(), orphansRemoved.get(),
                error);
    }
}
