package dev.hangar.bench.proxy;

import java.util.random.RandomGenerator;

/**
 * When each chunk of one direction of a connection may leave. Every chunk gets its own delay draw,
 * but a chunk never leaves before the one read before it: its release is {@code max(previous
 * release, arrival + draw)}. A TCP stream must not be reordered, and the proxy can only reorder by
 * releasing out of order, so this keeps every byte in place. The price, stated in the docs: under a
 * continuous stream with jitter, releases bunch up behind the largest recent draw, so a busy stream
 * sees delays near {@code base + jitter} while a chunk alone on an idle link sees the drawn one.
 *
 * <p>Its reader thread draws for every chunk; the other direction's writer may draw once more,
 * to forward a reset, hence the lock. Times are {@link System#nanoTime()} values passed in, so
 * tests choose them.
 */
final class DelaySchedule {

    private final OneWayDelay delay;
    private final RandomGenerator random;
    private long previousRelease;
    private boolean released;

    DelaySchedule(OneWayDelay delay, RandomGenerator random) {
        this.delay = delay;
        this.random = random;
    }

    /** The release time of a chunk read at {@code arrivalNanos}; never before the previous one. */
    synchronized long releaseAt(long arrivalNanos) {
        long release = arrivalNanos + delay.sampleNanos(random);
        // nanoTime values are compared by difference: they may wrap.
        if (released && release - previousRelease < 0) {
            release = previousRelease;
        }
        previousRelease = release;
        released = true;
        return release;
    }

    OneWayDelay delay() {
        return delay;
    }
}
