package dev.hangar.bench.load;

import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscriber;
import software.amazon.awssdk.core.async.AsyncRequestBody;

/**
 * A request body of {@link Payloads}' random bytes for one object, made while it is sent: each
 * subscription (the SDK subscribes again when it retries) reads a fresh {@link RandomPayloadStream}
 * on the executor, so no request holds its object in memory.
 */
final class RandomBody implements AsyncRequestBody {

    private final long seed;
    private final long index;
    private final long size;
    private final ExecutorService executor;
    private volatile @Nullable RandomPayloadStream last;

    RandomBody(long seed, long index, long size, ExecutorService executor) {
        this.seed = seed;
        this.index = index;
        this.size = size;
        this.executor = executor;
    }

    @Override
    public Optional<Long> contentLength() {
        return Optional.of(size);
    }

    @Override
    public void subscribe(Subscriber<? super ByteBuffer> subscriber) {
        RandomPayloadStream stream = new RandomPayloadStream(seed, index, size);
        last = stream;
        AsyncRequestBody.fromInputStream(stream, size, executor).subscribe(subscriber);
    }

    /** The CRC32C of the whole body if the last subscription read it to the end, else empty. */
    Optional<Long> sentCrc32c() {
        RandomPayloadStream stream = last;
        return stream != null && stream.finished() ? Optional.of(stream.crc32c()) : Optional.empty();
    }
}
