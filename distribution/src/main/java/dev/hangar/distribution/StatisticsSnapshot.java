package dev.hangar.distribution;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The latest value of a statistics call, taken again once older than its freshness. A call that
 * fails (the node closing under a scrape) keeps the previous value.
 *
 * <p>Taken {@linkplain #inBackground in the background}, a stale value is served while a new one is
 * counted on a virtual thread: for statistics whose call reads the whole store (a cluster counts
 * them from quorum reads of every entry), so that a scrape never waits for a count and scrapes
 * never run counts side by side. Only the very first call waits.
 */
final class StatisticsSnapshot<T> {
    private final Supplier<T> source;
    private final long freshNanos;
    private final boolean background;
    private final AtomicBoolean counting = new AtomicBoolean();
    private volatile T value;
    private volatile long takenAt;
    private volatile boolean taken;

    private StatisticsSnapshot(Supplier<T> source, T initial, long freshNanos, boolean background) {
        this.source = source;
        this.value = initial;
        this.freshNanos = freshNanos;
        this.background = background;
    }

    /** Taken by the call that finds the value stale. */
    static <T> StatisticsSnapshot<T> taken(Supplier<T> source, T initial, long freshNanos) {
        return new StatisticsSnapshot<>(source, initial, freshNanos, false);
    }

    /** Taken in the background once stale, the stale value served meanwhile. */
    static <T> StatisticsSnapshot<T> inBackground(Supplier<T> source, T initial, long freshNanos) {
        return new StatisticsSnapshot<>(source, initial, freshNanos, true);
    }

    T get() {
        long now = System.nanoTime();
        if (taken && now - takenAt < freshNanos) {
            return value;
        }
        if (!taken || !background) {
            take(now);
            return value;
        }
        T stale = value;
        if (counting.compareAndSet(false, true)) {
            Thread.ofVirtual().name("hangar-statistics").start(() -> {
                try {
                    take(System.nanoTime());
                } finally {
                    counting.set(false);
                }
            });
        }
        return stale;
    }

    private void take(long now) {
        try {
            value = source.get();
            takenAt = now;
            taken = true;
        } catch (RuntimeException e) {
            // Keep the previous value: a gauge that throws shows NaN, a counter breaks the scrape.
        }
    }
}
