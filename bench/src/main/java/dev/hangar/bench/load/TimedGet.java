package dev.hangar.bench.load;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * Reads a GetObject body and throws it away, noting when its first byte arrived and how many bytes
 * came: the time to first byte without holding the object in memory.
 */
final class TimedGet implements AsyncResponseTransformer<GetObjectResponse, TimedGet.Result> {

    /** Bytes received, and {@link System#nanoTime()} of the first body byte and of the end. */
    record Result(long bytes, long firstByteNanos, long endNanos) {
    }

    private volatile CompletableFuture<Result> result = new CompletableFuture<>();

    @Override
    public CompletableFuture<Result> prepare() {
        result = new CompletableFuture<>();
        return result;
    }

    @Override
    public void onResponse(GetObjectResponse response) {
    }

    @Override
    public void onStream(SdkPublisher<ByteBuffer> publisher) {
        CompletableFuture<Result> target = result;
        publisher.subscribe(new Subscriber<ByteBuffer>() {
            private long bytes;
            private long firstByteNanos;

            @Override
            public void onSubscribe(Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer buffer) {
                if (firstByteNanos == 0 && buffer.hasRemaining()) {
                    firstByteNanos = System.nanoTime();
                }
                bytes += buffer.remaining();
            }

            @Override
            public void onError(Throwable error) {
                target.completeExceptionally(error);
            }

            @Override
            public void onComplete() {
                long end = System.nanoTime();
                target.complete(new Result(bytes, firstByteNanos == 0 ? end : firstByteNanos, end));
            }
        });
    }

    @Override
    public void exceptionOccurred(Throwable error) {
        result.completeExceptionally(error);
    }
}
