package dev.hangar.blockstore.s3;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import software.amazon.awssdk.core.ResponseInputStream;

/**
 * Exactly {@code length} bytes of a GetObject response body, as they arrive. A body that ends early
 * is an error, since a stored block never changes; closing before the end aborts the transfer
 * instead of draining it.
 */
final class RemoteRangeInputStream extends InputStream {
    private final ResponseInputStream<?> body;
    private long remaining;
    private boolean closed;

    RemoteRangeInputStream(ResponseInputStream<?> body, long length) {
        this.body = body;
        this.remaining = length;
    }

    @Override
    public int read() throws IOException {
        ensureOpen();
        if (remaining == 0) {
            return -1;
        }
        int next = body.read();
        if (next == -1) {
            throw endedEarly();
        }
        remaining--;
        return next;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        ensureOpen();
        if (length == 0) {
            return 0;
        }
        if (remaining == 0) {
            return -1;
        }
        int count = body.read(buffer, offset, (int) Math.min(length, remaining));
        if (count == -1) {
            throw endedEarly();
        }
        remaining -= count;
        return count;
    }

    @Override
    public int available() throws IOException {
        ensureOpen();
        return (int) Math.min(body.available(), remaining);
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (remaining > 0) {
            body.abort();
        }
        body.close();
    }

    private EOFException endedEarly() {
        return new EOFException("S3 response ended " + remaining + " bytes before the end of the range");
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("stream closed");
        }
    }
}
