package dev.hangar.bench.proxy;

import java.util.SplittableRandom;

/**
 * A reproducible stream of random bytes: a writer takes slices of any length from one, a reader
 * checks what it receives against another with the same seed, so a transfer is verified byte for
 * byte without holding it in memory.
 */
final class RandomStream {

    private final SplittableRandom random;
    private final byte[] block = new byte[64 * 1024];
    private int position = block.length;
    private long offset;

    RandomStream(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** Fills {@code target[from, from + length)} with the stream's next bytes. */
    void next(byte[] target, int from, int length) {
        int done = 0;
        while (done < length) {
            refillIfEmpty();
            int n = Math.min(length - done, block.length - position);
            System.arraycopy(block, position, target, from + done, n);
            position += n;
            done += n;
        }
        offset += length;
    }

    /**
     * Checks {@code received[0, length)} against the stream's next bytes; returns the stream offset
     * of the first difference, or -1.
     */
    long firstMismatch(byte[] received, int length) {
        int done = 0;
        while (done < length) {
            refillIfEmpty();
            int n = Math.min(length - done, block.length - position);
            int mismatch = java.util.Arrays.mismatch(block, position, position + n, received, done, done + n);
            if (mismatch >= 0) {
                return offset + done + mismatch;
            }
            position += n;
            done += n;
        }
        offset += length;
        return -1;
    }

    private void refillIfEmpty() {
        if (position == block.length) {
            random.nextBytes(block);
            position = 0;
        }
    }
}
