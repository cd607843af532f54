package dev.hangar.cluster.raft;

import java.util.ArrayDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * One direction of one call through {@link RaftFaults}: runs its actions in order, each no earlier than it is due,
 * one at a time. An inbound lane hands on a message only when the service has asked for one ({@code credits}).
 */
final class FaultLane {
    private static final Logger LOG = Logger.getLogger(RaftFaults.class.getName());

    private record Item(long due, long offered, Runnable action, boolean message, boolean lagged) {}

    private final @Nullable AtomicLong credits;
    /** Told how late each message that counts as delivered late was, in nanoseconds. */
    private final LongConsumer onLate;
    private final ArrayDeque<Item> queue = new ArrayDeque<>();
    private long lastDue;
    private boolean hasLast;
    private boolean running;
    private boolean wakeScheduled;
    private long wakeAt;

    FaultLane(@Nullable AtomicLong credits, LongConsumer onLate) {
        this.credits = credits;
        this.onLate = onLate;
    }

    /**
     * Adds an action due {@code delayNanos} from now, or after the one before; runs it here and now when
     * nothing is ahead of it and it is due.
     *
     * @param message whether it hands on an inbound message, which waits for the service to ask for one
     * @param lagged whether it counts in the stats as a message delivered late
     */
    void offer(long delayNanos, Runnable action, boolean message, boolean lagged) {
        long now = System.nanoTime();
        synchronized (this) {
            long due = now + delayNanos;
            if (hasLast && due - lastDue < 0) {
                due = lastDue;
            }
            lastDue = due;
            hasLast = true;
            queue.add(new Item(due, now, action, message, lagged && due != now));
            if (running || !ready(now)) {
                return;
            }
            running = true;
        }
        drain();
    }

    /** Drops what is queued and runs {@code last} next: the call is over. */
    void end(Runnable last) {
        synchronized (this) {
            queue.clear();
            hasLast = false;
        }
        offer(0, last, false, false);
    }

    /** Drops what is queued: the call is over, nothing more needs sending. */
    void discard() {
        synchronized (this) {
            queue.clear();
            hasLast = false;
        }
    }

    /** Runs what is due (the service asked for more, or a delay ran out) on the delivery threads. */
    void kick() {
        synchronized (this) {
            if (running || !ready(System.nanoTime())) {
                return;
            }
            running = true;
        }
        Threads.DELIVERY.execute(this::drain);
    }

    // Under the lock: whether the head can run now; if it is not due yet, a wake-up is set for it.
    private boolean ready(long now) {
        Item head = queue.peek();
        if (head == null) {
            return false;
        }
        if (head.due() - now > 0) {
            if (!wakeScheduled || head.due() - wakeAt < 0) {
                wakeScheduled = true;
                wakeAt = head.due();
                Threads.TIMER.schedule(this::wake, head.due() - now, TimeUnit.NANOSECONDS);
            }
            return false;
        }
        return !head.message() || credits == null || credits.get() > 0;
    }

    private void wake() {
        synchronized (this) {
            wakeScheduled = false;
        }
        kick();
    }

    private void drain() {
        while (true) {
            Item item;
            long now = System.nanoTime();
            synchronized (this) {
                if (!ready(now)) {
                    running = false;
                    return;
                }
                item = queue.poll();
            }
            if (item.message() && credits != null) {
                credits.decrementAndGet();
            }
            if (item.lagged()) {
                onLate.accept(now - item.offered());
            }
            try {
                item.action().run();
            } catch (RuntimeException e) {
                // The call was cancelled under it, or the service failed on a message: the call ends as the
                // peer's timeout or the service's own close decides.
                LOG.log(Level.FINE, "a delayed Raft message could not be handed on", e);
            }
        }
    }

    /** The threads of delayed calls, made only once a fault is set: one timer, and the threads that deliver. */
    private static final class Threads {
        static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("hangar-raft-faults-timer").factory());
        // The Raft services may block a little on a message (a log append), so each drain has a thread of its own.
        static final ExecutorService DELIVERY = Executors.newCachedThreadPool(
                Thread.ofPlatform().daemon().name("hangar-raft-faults-", 0).factory());

        private Threads() {}
    }
}
