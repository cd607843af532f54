package dev.hangar.bench.load;

import java.util.SplittableRandom;

/**
 * Object payloads and sizes: random per object, so that no deduplication or compression can flatter
 * a result, and reproducible: the same seed and object number give the same bytes.
 */
final class Payloads {

    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private Payloads() {
    }

    /** A random generator for object {@code index} of a run seeded with {@code seed}. */
    static SplittableRandom random(long seed, long index) {
        return new SplittableRandom(seed * GOLDEN_GAMMA + index + 1);
    }

    /** The random bytes of object {@code index}. */
    static byte[] bytes(long seed, long index, int size) {
        byte[] payload = new byte[size];
        payloadRandom(seed, index).nextBytes(payload);
        return payload;
    }

    /** The generator of the bytes of object {@code index}, for a payload made as it streams ({@link RandomPayloadStream}). */
    static SplittableRandom payloadRandom(long seed, long index) {
        return random(seed ^ 0x5DEECE66DL, index);
    }

    /**
     * A log-normal size: {@code median × e^(sigma × N(0,1))}, rounded and clamped to {@code [1,
     * max]}. Half the objects are smaller than the median.
     */
    static int logNormalSize(long seed, long index, int median, double sigma, int max) {
        double gaussian = random(seed ^ 0x2545F4914F6CDD1DL, index).nextGaussian();
        long size = Math.round(median * Math.exp(sigma * gaussian));
        return (int) Math.max(1, Math.min(max, size));
    }
}
