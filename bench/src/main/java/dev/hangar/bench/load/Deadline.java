package dev.hangar.bench.load;

import java.time.Duration;

/** A point in {@link System#nanoTime()} time after which a command issues no new request. */
record Deadline(long endNanos) {

    static Deadline after(Duration duration) {
        long now = System.nanoTime();
        long nanos = duration.toNanos();
        return new Deadline(Long.MAX_VALUE - now < nanos ? Long.MAX_VALUE : now + nanos);
    }

    boolean expired() {
        return System.nanoTime() - endNanos >= 0;
    }
}
