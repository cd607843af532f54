package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.auth.PayloadVerificationException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.LongFunction;

/**
 * A body cut off once it exceeds the most the operation takes: the read that passes the limit fails
 * (with {@code EntityTooLarge}, or the refusal the caller makes of the count), so that no more than
 * the limit and one buffer is ever stored. For a PUT without a declared length (sent with {@code
 * Transfer-Encoding: chunked}) and for the file of a browser upload, whose size the form does not say.
 */
final class LengthLimitedStream extends FilterInputStream {
    private final long limit;
    private final LongFunction<IOException> refusal;
    private long read;

    /** Fails with {@code EntityTooLarge} and this message. */
    LengthLimitedStream(InputStream in, long limit, String message) {
        this(in, limit, count -> new PayloadVerificationException(S3Error.ENTITY_TOO_LARGE, message));
    }

    /** Fails with what {@code refusal} makes of the count that passed the limit. */
    LengthLimitedStream(InputStream in, long limit, LongFunction<IOException> refusal) {
        super(in);
        this.limit = limit;
        this.refusal = refusal;
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

    /** Marks would let a reset read bytes twice and count them once. */
    @Override
    public boolean markSupported() {
        return false;
    }

    /** The number of bytes read so far. */
    long count() {
        return read;
    }

    private void count(long n) throws IOException {
        read += n;
        if (read > limit) {
            throw refusal.apply(read);
        }
    }
}
