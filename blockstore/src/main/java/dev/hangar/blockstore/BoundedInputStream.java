package dev.hangar.blockstore;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * At most {@code limit} bytes of a stream that stays open afterwards, so that the next chunk can be
 * read from it: closing this view does not close the stream underneath.
 */
final class BoundedInputStream extends InputStream {
    private final InputStream source;
    private long remaining;

    BoundedInputStream(InputStream source, long limit) {
        this.source = source;
        this.remaining = limit;
    }

    @Override
    public int read() throws IOException {
        if (remaining == 0) {
            return -1;
        }
        int next = source.read();
        if (next != -1) {
            remaining--;
        }
        return next;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        if (length == 0) {
            return 0;
        }
        if (remaining == 0) {
            return -1;
        }
        int count = source.read(buffer, offset, (int) Math.min(length, remaining));
        if (count > 0) {
            remaining -= count;
        }
        return count;
    }

    @Override
    public long skip(long count) throws IOException {
        long skipped = source.skip(Math.min(Math.max(count, 0), remaining));
        remaining -= skipped;
        return skipped;
    }

    @Override
    public int available() throws IOException {
        return (int) Math.min(source.available(), remaining);
    }

    @Override
    public void close() {
        // The source belongs to whoever cut it into chunks.
    }
}
