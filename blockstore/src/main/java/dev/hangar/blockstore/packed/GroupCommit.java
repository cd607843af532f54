package dev.hangar.blockstore.packed;

import java.io.IOException;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * Lets concurrent writers share fsyncs. Every append gets a ticket, its end in a sequence over all
 * bytes ever appended; a writer waits until the durable mark passes its ticket. If no sync is
 * running, it runs one itself, which covers every append made before it started: so while one
 * sync runs, the writers that arrive queue up, and the next sync acknowledges all of them at once.
 * At the disk's sync rate R and C concurrent writers, throughput approaches C × R instead of R.
 */
final class GroupCommit {

    /** Forces everything appended so far and returns the ticket it covers. */
    @FunctionalInterface
    interface Sync {
        long forceAll() throws IOException;
    }

    private final Sync sync;
    /** A lock, not a monitor: a virtual thread waiting on a monitor pins its carrier before JDK 24. */
    private final ReentrantLock monitor = new ReentrantLock();
    private final Condition changed = monitor.newCondition();
    /** Tickets of writers waiting; guarded by monitor. */
    private final NavigableSet<Long> waiting = new TreeSet<>();
    private long durable;
    private boolean syncing;
    private @Nullable IOException failure;

    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong committedWrites = new AtomicLong();
    private final AtomicLong largest = new AtomicLong();

    GroupCommit(Sync sync) {
        this.sync = sync;
    }

    /**
     * Returns once everything up to {@code ticket} is on stable storage.
     *
     * @throws IOException if a sync failed, this one or an earlier one: nothing is acknowledged
     *     after a failed sync, since the kernel may have dropped the pages it could not write
     */
    void awaitDurable(long ticket) throws IOException {
        boolean interrupted = false;
        try {
            monitor.lock();
            try {
                // The leader's own ticket stays here too, so that it counts in its group's size.
                waiting.add(ticket);
                while (true) {
                    if (failure != null) {
                        waiting.remove(ticket);
                        throw new IOException("an earlier sync failed; the store takes no more writes", failure);
                    }
                    if (durable >= ticket) {
                        waiting.remove(ticket);
                        committedWrites.incrementAndGet();
                        return;
                    }
                    if (!syncing) {
                        syncing = true;
                        break;
                    }
                    try {
                        changed.await();
                    } catch (InterruptedException e) {
                        // The data is appended already; the writer must learn whether it is durable.
                        interrupted = true;
                    }
                }
            } finally {
                monitor.unlock();
            }
            lead(ticket);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Runs one sync as the group's leader, then wakes the writers it covered. */
    private void lead(long ticket) throws IOException {
        long covered;
        try {
            covered = sync.forceAll();
        } catch (IOException | RuntimeException e) {
            monitor.lock();
            try {
                failure = e instanceof IOException io ? io : new IOException(e);
                syncing = false;
                waiting.remove(ticket);
                changed.signalAll();
            } finally {
                monitor.unlock();
            }
            throw e;
        }
        monitor.lock();
        try {
            durable = Math.max(durable, covered);
            syncing = false;
            NavigableSet<Long> done = waiting.headSet(durable, true);
            int group = done.size();
            done.clear();
            waiting.remove(ticket);
            commits.incrementAndGet();
            committedWrites.incrementAndGet();
            largest.accumulateAndGet(group, Math::max);
            changed.signalAll();
        } finally {
            monitor.unlock();
        }
    }

    /** Marks everything up to {@code ticket} durable: a sync made outside, on rotation. */
    void markDurable(long ticket) {
        monitor.lock();
        try {
            durable = Math.max(durable, ticket);
            commits.incrementAndGet();
            changed.signalAll();
        } finally {
            monitor.unlock();
        }
    }

    long commits() {
        return commits.get();
    }

    long committedWrites() {
        return committedWrites.get();
    }

    long largestGroup() {
        return largest.get();
    }
}
