package dev.hangar.bench.lab;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * What a set of timed requests took, in milliseconds: recorded in microseconds (1 µs to 10 min, 3
 * significant digits), with the failures counted beside.
 */
final class LatencyStats {
    private final Histogram micros = new Histogram(TimeUnit.MINUTES.toMicros(10), 3);
    private long errors;

    synchronized void record(long nanos) {
        micros.recordValue(Math.max(1, Math.min(micros.getHighestTrackableValue(), TimeUnit.NANOSECONDS.toMicros(nanos))));
    }

    synchronized void error() {
        errors++;
    }

    synchronized long requests() {
        return micros.getTotalCount();
    }

    synchronized long errors() {
        return errors;
    }

    /** The {@code percentile} (0–100) in ms; NaN without a request. */
    synchronized double percentileMs(double percentile) {
        return micros.getTotalCount() == 0 ? Double.NaN : micros.getValueAtPercentile(percentile) / 1000.0;
    }

    synchronized double minMs() {
        return micros.getTotalCount() == 0 ? Double.NaN : micros.getMinValue() / 1000.0;
    }

    synchronized double maxMs() {
        return micros.getTotalCount() == 0 ? Double.NaN : micros.getMaxValue() / 1000.0;
    }
}
