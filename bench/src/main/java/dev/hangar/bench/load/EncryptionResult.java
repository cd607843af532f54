package dev.hangar.bench.load;

import org.jspecify.annotations.Nullable;

/**
 * What one mode of the {@code encryption} benchmark measured: requests, bytes and the wall time of
 * its batches per direction, the median request, and why the endpoint refused the mode, if it did.
 * Throughput is bytes over the wall time of the mode's own batches, so other modes' batches never
 * count against it.
 */
record EncryptionResult(EncryptionMode mode, long puts, long gets, long errors, long putBytes, long putNanos, long getBytes,
                        long getNanos, double putP50Millis, double getP50Millis, @Nullable String unsupported) {

    private static final double MIB = 1024.0 * 1024.0;

    double putMibPerSecond() {
        return mibPerSecond(putBytes, putNanos);
    }

    double getMibPerSecond() {
        return mibPerSecond(getBytes, getNanos);
    }

    boolean supported() {
        return unsupported == null;
    }

    /** Bytes per second in MiB, NaN when nothing was timed. */
    static double mibPerSecond(long bytes, long nanos) {
        return nanos <= 0 ? Double.NaN : bytes / MIB / (nanos / 1e9);
    }

    /** {@code value / reference}, NaN unless both are positive figures. */
    static double ratio(double value, double reference) {
        return Double.isFinite(value) && Double.isFinite(reference) && reference > 0 && value >= 0 ? value / reference : Double.NaN;
    }
}
