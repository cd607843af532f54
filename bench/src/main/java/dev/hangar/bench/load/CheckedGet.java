package dev.hangar.bench.load;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.zip.CRC32C;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.async.SdkPublisher;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * Reads a GetObject body and throws it away, keeping its length and CRC32C (a few GB/s on one
 * core, so checking every byte costs the client little) and the response's headers.
 */
final class CheckedGet implements AsyncResponseTransformer<GetObjectResponse, CheckedGet.Result> {

    /** What came: the response, the body's length and its CRC32C. */
    record Result(GetObjectResponse response, long bytes, long crc32c) {
    }

    private volatile CompletableFuture<Result> result = new CompletableFuture<>();
    private volatile @Nullable GetObjectResponse response;

    @Override
    public CompletableFuture<Result> prepare() {
        result = new CompletableFuture<>();
        return result;
    }

    @Override
    public void onResponse(GetObjectResponse response) {
        this.response = response;
    }

    @Override
    public void onStream(SdkPublisher<ByteBuffer> publisher) {
        CompletableFuture<Result> target = result;
        GetObjectResponse headers = response;
        publisher.subscribe(new Subscriber<ByteBuffer>() {
            private final CRC32C crc = new CRC32C();
            private long bytes;

            @Override
            public void onSubscribe(Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer buffer) {
                bytes += buffer.remaining();
                crc.update(buffer);
            }

            @Override
            public void onError(Throwable error) {
                target.completeExceptionally(error);
            }

            @Override
            public void onComplete() {
                if (headers == null) {
                    target.completeExceptionally(new IllegalStateException("body without a response"));
                } else {
                    target.complete(new Result(headers, bytes, crc.getValue()));
                }
            }
        });
    }

    @Override
    public void exceptionOccurred(Throwable error) {
        result.completeExceptionally(error);
    }
}
