package dev.hangar.bench.load;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What one mode of the {@code encryption} benchmark measured: requests, bytes and the wall time of
 * its batches per direction, the median request, the MiB/s of each round's batch (NaN where it had
 * none), and why the endpoint refused the mode, if it did. Throughput is bytes over the wall time
 * of the mode's own batches, so other modes' batches never count against it.
 */
record EncryptionResult(EncryptionMode mode, long puts, long gets, long errors, long putBytes, long putNanos, long getBytes,
                        long getNanos, double putP50Millis, double getP50Millis, List<Double> putRounds, List<Double> getRounds,
                        @Nullable String unsupported) {

    EncryptionResult {
        putRounds = List.copyOf(putRounds);
        getRounds = List.copyOf(getRounds);
    }

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

    /**
     * The median over rounds of {@code values[r] / references[r]}, the rounds where both have a
     * figure; NaN if none has. A round's modes ran back to back, so a slow spell of a shared machine
     * moves both sides of a round's ratio and one bad round moves the median little.
     */
    static double medianRatio(List<Double> values, List<Double> references) {
        List<Double> ratios = new ArrayList<>();
        for (int round = 0; round < Math.min(values.size(), references.size()); round++) {
            double ratio = ratio(values.get(round), references.get(round));
            if (!Double.isNaN(ratio)) {
                ratios.add(ratio);
            }
        }
        if (ratios.isEmpty()) {
            return Double.NaN;
        }
        Collections.sort(ratios);
        int middle = ratios.size() / 2;
        return ratios.size() % 2 == 1 ? ratios.get(middle) : (ratios.get(middle - 1) + ratios.get(middle)) / 2;
    }

    /** {@code value / reference}, NaN unless both are positive figures. */
    static double ratio(double value, double reference) {
        return Double.isFinite(value) && Double.isFinite(reference) && reference > 0 && value >= 0 ? value / reference : Double.NaN;
    }
}
