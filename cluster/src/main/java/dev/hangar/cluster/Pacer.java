package dev.hangar.cluster;

/**
 * Keeps a background reader to a rate: after each read it says how long to wait so that the bytes
 * read since the start, divided by the time since the start, stay at most the rate. Waits shorter
 * than {@link #MIN_WAIT_NANOS} are saved up rather than slept one by one, so small blocks do not
 * cost a timer each.
 */
final class Pacer {
    private static final long MIN_WAIT_NANOS = 10_000_000;

    private final long bytesPerSecond;
    private final long startNanos;
    private long bytes;

    /** A pacer starting now; {@code bytesPerSecond} zero means no limit. */
    Pacer(long bytesPerSecond, long startNanos) {
        this.bytesPerSecond = bytesPerSecond;
        this.startNanos = startNanos;
    }

    /** Accounts for {@code read} more bytes at {@code nowNanos}; returns the nanoseconds to wait, 0 for none. */
    long waitAfter(long read, long nowNanos) {
        bytes += read;
        if (bytesPerSecond <= 0) {
            return 0;
        }
        // In double: bytes * 1e9 overflows a long past 9 GB.
        long dueNanos = startNanos + (long) (bytes * (1e9 / bytesPerSecond));
        long wait = dueNanos - nowNanos;
        return wait >= MIN_WAIT_NANOS ? wait : 0;
    }
}
