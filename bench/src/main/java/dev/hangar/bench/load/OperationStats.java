package dev.hangar.bench.load;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * What one kind of request did: successes, failures, bytes moved and the latency histogram of the
 * successes, in microseconds. Safe to update from the client's threads.
 */
public final class OperationStats {

    private final String name;
    private final LongAdder count = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final ConcurrentHistogram latencyMicros = new ConcurrentHistogram(3);
    private final AtomicReference<@Nullable String> firstError = new AtomicReference<>();

    public OperationStats(String name) {
        this.name = name;
    }

    String name() {
        return name;
    }

    void success(long startNanos, long bytesMoved) {
        successAfter(System.nanoTime() - startNanos, bytesMoved);
    }

    public void successAfter(long elapsedNanos, long bytesMoved) {
        long micros = Math.max(1, elapsedNanos / 1_000);
        latencyMicros.recordValue(micros);
        count.increment();
        bytes.add(bytesMoved);
    }

    public void failure(Throwable error) {
        errors.increment();
        firstError.compareAndSet(null, describe(error));
    }

    public long count() {
        return count.sum();
    }

    public long errors() {
        return errors.sum();
    }

    long bytes() {
        return bytes.sum();
    }

    @Nullable String firstError() {
        return firstError.get();
    }

    Histogram histogram() {
        return latencyMicros.copy();
    }

    /** The latency at a percentile, in milliseconds; 0 when nothing succeeded. */
    public double percentileMillis(double percentile) {
        return latencyMicros.getTotalCount() == 0 ? 0 : latencyMicros.getValueAtPercentile(percentile) / 1_000.0;
    }

    public double maxMillis() {
        return latencyMicros.getTotalCount() == 0 ? 0 : latencyMicros.getMaxValue() / 1_000.0;
    }

    public double minMillis() {
        return latencyMicros.getTotalCount() == 0 ? 0 : latencyMicros.getMinValue() / 1_000.0;
    }

    double meanMillis() {
        return latencyMicros.getTotalCount() == 0 ? 0 : latencyMicros.getMean() / 1_000.0;
    }

    static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    static String describe(Throwable error) {
        Throwable cause = unwrap(error);
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }
}
