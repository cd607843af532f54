package dev.hangar.distribution.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;
import org.reactivestreams.Subscriber;
import reactor.core.publisher.Flux;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Deterministic pseudo-random bytes of a given size, generated on demand: a 2 GiB body never
 * exists in memory. The same seed and size always give the same bytes, so a test can upload a
 * stream and later compare what it reads back against digests of a fresh stream.
 */
public final class RandomContent {

    private static final int BUFFER_SIZE = 64 * 1024;
    private static final long MAX_IN_MEMORY = 32L * 1024 * 1024;

    private final long seed;
    private final long size;
    private volatile String sha256Hex;
    private volatile byte[] md5;

    private RandomContent(long seed, long size) {
        if (size < 0) {
            throw new IllegalArgumentException("size must not be negative: " + size);
        }
        this.seed = seed;
        this.size = size;
    }

    public static RandomContent of(long seed, long size) {
        return new RandomContent(seed, size);
    }

    public long size() {
        return size;
    }

    /** A fresh stream over all bytes. */
    public InputStream newStream() {
        return new RandomInputStream(seed, size);
    }

    /** A fresh stream over {@code length} bytes starting at {@code offset}. */
    public InputStream newStream(long offset, long length) {
        if (offset < 0 || length < 0 || offset + length > size) {
            throw new IllegalArgumentException("range " + offset + "+" + length + " outside 0.." + size);
        }
        InputStream stream = new RandomInputStream(seed, offset + length);
        try {
            stream.skipNBytes(offset);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return stream;
    }

    /** All bytes in an array; only for small contents. */
    public byte[] bytes() {
        return bytes(0, size);
    }

    /** A slice in an array; only for small slices. */
    public byte[] bytes(long offset, long length) {
        if (length > MAX_IN_MEMORY) {
            throw new IllegalStateException("refusing to hold " + length + " bytes in memory");
        }
        try (InputStream stream = newStream(offset, length)) {
            return stream.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A request body that can be re-read (the SDK may retry or compute checksums). */
    public RequestBody requestBody() {
        return RequestBody.fromContentProvider(this::newStream, size, "application/octet-stream");
    }

    /** An async request body that generates its bytes as the subscriber asks for them. */
    public AsyncRequestBody asyncRequestBody() {
        return new GeneratedAsyncRequestBody(this);
    }

    public String sha256Hex() {
        String result = sha256Hex;
        if (result == null) {
            computeDigests();
            result = sha256Hex;
        }
        return result;
    }

    public String md5Hex() {
        return Digests.hex(md5());
    }

    public byte[] md5() {
        byte[] result = md5;
        if (result == null) {
            computeDigests();
            result = md5;
        }
        return result.clone();
    }

    /** The ETag S3 gives a single-part upload of this content: the quoted hex MD5. */
    public String etag() {
        return '"' + md5Hex() + '"';
    }

    private synchronized void computeDigests() {
        if (sha256Hex != null) {
            return;
        }
        Digests.Both both = Digests.sha256AndMd5(newStream());
        md5 = both.md5();
        sha256Hex = both.sha256Hex();
    }

    /** The bytes of several contents one after another, as a multipart upload assembles them. */
    public static InputStream concatenation(List<RandomContent> parts) {
        List<InputStream> streams = parts.stream().map(RandomContent::newStream).toList();
        return new SequenceInputStream(Collections.enumeration(streams));
    }

    @Override
    public String toString() {
        return "RandomContent[seed=" + seed + ", size=" + size + "]";
    }

    private static final class GeneratedAsyncRequestBody implements AsyncRequestBody {

        private final RandomContent content;

        GeneratedAsyncRequestBody(RandomContent content) {
            this.content = content;
        }

        @Override
        public Optional<Long> contentLength() {
            return Optional.of(content.size);
        }

        @Override
        public String contentType() {
            return "application/octet-stream";
        }

        @Override
        public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
            Flux.<ByteBuffer, InputStream>generate(content::newStream, (stream, sink) -> {
                byte[] buffer = new byte[BUFFER_SIZE];
                try {
                    int read = stream.readNBytes(buffer, 0, buffer.length);
                    if (read == 0) {
                        sink.complete();
                    } else {
                        sink.next(ByteBuffer.wrap(buffer, 0, read));
                    }
                } catch (IOException e) {
                    sink.error(e);
                }
                return stream;
            }).subscribe(subscriber);
        }
    }

    /** Bytes of a {@link SplittableRandom}, eight per {@code nextLong()}, little-endian. */
    private static final class RandomInputStream extends InputStream {

        private final SplittableRandom random;
        private long remaining;
        private long word;
        private int wordBytesLeft;

        RandomInputStream(long seed, long size) {
            this.random = new SplittableRandom(seed);
            this.remaining = size;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            Objects.checkFromIndexSize(offset, length, buffer.length);
            if (length == 0) {
                return 0;
            }
            if (remaining == 0) {
                return -1;
            }
            int count = (int) Math.min(length, remaining);
            int position = offset;
            int end = offset + count;
            while (position < end && wordBytesLeft > 0) {
                buffer[position++] = (byte) word;
                word >>>= 8;
                wordBytesLeft--;
            }
            while (end - position >= 8) {
                long next = random.nextLong();
                for (int i = 0; i < 8; i++) {
                    buffer[position++] = (byte) next;
                    next >>>= 8;
                }
            }
            while (position < end) {
                if (wordBytesLeft == 0) {
                    word = random.nextLong();
                    wordBytesLeft = 8;
                }
                buffer[position++] = (byte) word;
                word >>>= 8;
                wordBytesLeft--;
            }
            remaining -= count;
            return count;
        }

        @Override
        public long skip(long n) {
            long toSkip = Math.min(Math.max(n, 0), remaining);
            byte[] scratch = new byte[(int) Math.min(BUFFER_SIZE, Math.max(toSkip, 1))];
            long skipped = 0;
            while (skipped < toSkip) {
                skipped += read(scratch, 0, (int) Math.min(scratch.length, toSkip - skipped));
            }
            return skipped;
        }

        @Override
        public int available() {
            return (int) Math.min(Integer.MAX_VALUE, remaining);
        }
    }
}
