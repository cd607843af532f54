package dev.hangar.cluster;

import dev.hangar.blockstore.BlockId;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The blocks that requests of this node are reading, so that this node's reclamation does not free
 * them under a reader: a GET that looked up a version keeps its blocks until its stream closes, even
 * when the version is overwritten or deleted meanwhile.
 *
 * <p>A read has two steps. {@link #begin} comes <em>before</em> the metadata lookup and returns a
 * {@link Reading}, a ticket numbered from a counter; {@link Reading#hold} turns it into a {@link
 * Lease} on the blocks the lookup found (counted per block), and only then drops the ticket. The
 * reclaimer, having read a batch of queued blocks (queued atomically with the mutation that made
 * them unreachable), takes a {@link #barrier} and {@linkplain #awaitReadersBefore waits} for the
 * tickets up to it: a reader that found one of those blocks looked it up before the mutation, so
 * before the barrier, and once its ticket is gone its lease is counted. A reader that begins after
 * the barrier cannot find the block at all. So a block is freed only when {@link #deferIfLeased}
 * finds no lease, and that answer cannot be outdated by a reader that will still read it. Tickets
 * live for a metadata lookup, leases as long as the response stream; waiting for tickets is short,
 * and a long read defers only the blocks it holds.
 *
 * <p>A block that the reclaimer deferred because it was leased is marked; when its last lease ends,
 * the listener given to the constructor runs (the node asks for a reclamation pass), so the block
 * goes soon after its last reader.
 *
 * <p>A scrub consults them the same way before it removes an orphan ({@link #leased}): a block that an
 * overwrite queued while a read holds it is referenced by no metadata, so it looks like an orphan.
 *
 * <p>Leases are this node's, in memory. Another node's reclaimer asks about them over RPC before it
 * frees blocks ({@link ClusterReaders}): the node answers after the same barrier and wait.
 */
public final class ReaderLeases {
    private final AtomicLong clock = new AtomicLong();
    private final ConcurrentSkipListSet<Long> tickets = new ConcurrentSkipListSet<>();
    private final ConcurrentHashMap<BlockId, Holders> held = new ConcurrentHashMap<>();
    private final Runnable deferredReleased;

    /** How many leases hold a block, and whether the reclaimer passed it over because of them. */
    private record Holders(int count, boolean deferred) {}

    /** @param deferredReleased runs when the last lease of a block the reclaimer deferred ends */
    public ReaderLeases(Runnable deferredReleased) {
        this.deferredReleased = deferredReleased;
    }

    /** Starts a read: call before looking up what to read, and close or {@link Reading#hold} it after. */
    public Reading begin() {
        long ticket = clock.incrementAndGet();
        tickets.add(ticket);
        return new Reading(ticket);
    }

    /** A read between {@link #begin} and {@link #hold}: its ticket keeps the reclaimer waiting. */
    public final class Reading implements AutoCloseable {
        private final long ticket;
        private final AtomicBoolean open = new AtomicBoolean(true);

        private Reading(long ticket) {
            this.ticket = ticket;
        }

        /**
         * Leases {@code blocks} (duplicates count once each time they appear) and ends this reading.
         *
         * @throws IllegalStateException if the reading has ended already
         */
        public Lease hold(Collection<BlockId> blocks) {
            if (!open.get()) {
                throw new IllegalStateException("this reading has ended");
            }
            List<BlockId> ids = List.copyOf(blocks);
            // Counted before the ticket goes: a reclaimer that sees the ticket gone sees the counts.
            for (BlockId id : ids) {
                held.merge(id, new Holders(1, false), (before, one) -> new Holders(before.count() + 1, before.deferred()));
            }
            close();
            return new Lease(ids);
        }

        /** Ends the reading without a lease (nothing to read, or the lookup failed); idempotent. */
        @Override
        public void close() {
            if (open.compareAndSet(true, false)) {
                tickets.remove(ticket);
            }
        }
    }

    /** Blocks held for a reader until {@link #close}, which is idempotent. */
    public final class Lease implements AutoCloseable {
        private final List<BlockId> ids;
        private final AtomicBoolean open = new AtomicBoolean(true);

        private Lease(List<BlockId> ids) {
            this.ids = ids;
        }

        @Override
        public void close() {
            if (!open.compareAndSet(true, false)) {
                return;
            }
            boolean deferredFreed = false;
            for (BlockId id : ids) {
                boolean[] wasDeferred = new boolean[1];
                held.computeIfPresent(id, (key, before) -> {
                    if (before.count() > 1) {
                        return new Holders(before.count() - 1, before.deferred());
                    }
                    wasDeferred[0] = before.deferred();
                    return null;
                });
                deferredFreed |= wasDeferred[0];
            }
            if (deferredFreed) {
                deferredReleased.run();
            }
        }
    }

    /** A point in the order of readings: those begun before it have a smaller ticket. */
    long barrier() {
        return clock.incrementAndGet();
    }

    /**
     * Waits until every reading begun before {@code barrier} has ended or holds its lease. Polls: a
     * ticket lives for one metadata lookup, so the wait is short, and the readers never pay for it.
     *
     * @return false if some were still open after {@code timeout}
     */
    boolean awaitReadersBefore(long barrier, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (tickets.lower(barrier) != null) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }

    /**
     * Whether a lease holds {@code id}; if so, marks it so that its last release asks for another
     * pass. Atomic with the leases of the block.
     */
    boolean deferIfLeased(BlockId id) {
        return held.computeIfPresent(id, (key, before) -> new Holders(before.count(), true)) != null;
    }

    /**
     * Whether a lease holds {@code id}, without marking it: for a scrub, which removes only blocks that no
     * metadata references and leaves the queued ones to the reclaimer, whose own check marks them.
     */
    boolean leased(BlockId id) {
        return held.containsKey(id);
    }

    /** How many distinct blocks leases hold now: for tests and metrics. */
    int heldBlocks() {
        return held.size();
    }
}
