package dev.hangar.s3api.encryption;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * A stream that hands out one segment at a time from a buffer its subclass fills: what sealing and unsealing
 * share. At most one segment is held, whatever the content's size.
 */
abstract class SegmentBuffer extends InputStream {
    /** The segment being handed out; {@link #fill} replaces it. */
    protected final byte[] output;
    protected int outputLength;
    protected int outputPosition;

    SegmentBuffer(int capacity) {
        this.output = new byte[capacity];
    }

    /** Puts the next segment in {@link #output}; false at the end of the stream. */
    abstract boolean fill() throws IOException;

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        if (length == 0) {
            return 0;
        }
        while (outputPosition == outputLength) {
            if (!fill()) {
                return -1;
            }
        }
        int n = Math.min(length, outputLength - outputPosition);
        System.arraycopy(output, outputPosition, buffer, offset, n);
        outputPosition += n;
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = 0;
        while (skipped < n) {
            if (outputPosition == outputLength && !fill()) {
                break;
            }
            int step = (int) Math.min(n - skipped, outputLength - outputPosition);
            outputPosition += step;
            skipped += step;
        }
        return skipped;
    }
}
