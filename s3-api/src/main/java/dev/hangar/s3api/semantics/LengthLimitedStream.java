package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.auth.PayloadVerificationException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A body of no declared length (sent with {@code Transfer-Encoding: chunked}), cut off once it exceeds
 * the largest object the operation takes: the read that passes the limit fails with {@code
 * EntityTooLarge}, so that no more than the limit (and one buffer) is ever stored.
 */
final class LengthLimitedStream extends FilterInputStream {
    private final long limit;
    private final String message;
    private long read;

    LengthLimitedStream(InputStream in, long limit, String message) {
        super(in);
        this.limit = limit;
        this.message = message;
    }

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b >= 0) {
            count(1);
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = in.read(buffer, offset, length);
        if (n > 0) {
            count(n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = in.skip(n);
        count(skipped);
        return skipped;
    }

    /** The number of bytes read so far. */
    long count() {
        return read;
    }

    private void count(long n) throws IOException {
        read += n;
        if (read > limit) {
            throw new PayloadVerificationException(S3Error.ENTITY_TOO_LARGE, message);
        }
    }
}
