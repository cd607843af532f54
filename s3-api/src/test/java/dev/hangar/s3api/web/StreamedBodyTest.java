package dev.hangar.s3api.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import dev.hangar.s3api.semantics.S3Response;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;

@Timeout(60)
class StreamedBodyTest {

    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    @Test
    void publishesEveryByteInBuffersOfAtMostTheChunkSizeThenCompletes() throws Exception {
        byte[] body = new byte[1_000_003];
        new Random(7).nextBytes(body);
        Recorder recorder = new Recorder(Long.MAX_VALUE);

        StreamedBody.publish(out -> {
            for (int offset = 0; offset < body.length; offset += 5_000) {
                out.write(body, offset, Math.min(5_000, body.length - offset));
            }
        }, DefaultDataBufferFactory.sharedInstance, executor, 64 * 1024, Duration.ofSeconds(30)).subscribe(recorder);

        recorder.done.get(30, TimeUnit.SECONDS);
        assertThat(recorder.bytes.toByteArray()).isEqualTo(body);
        assertThat(recorder.sizes).allMatch(size -> size > 0 && size <= 64 * 1024);
    }

    @Test
    void readsAChannelStraightIntoOffHeapBuffersOfAtMostTheChunkSize() throws Exception {
        byte[] body = new byte[1_000_003];
        new Random(11).nextBytes(body);
        Recorder recorder = new Recorder(Long.MAX_VALUE);
        List<Boolean> direct = new CopyOnWriteArrayList<>();

        StreamedBody.publish(out -> {
            // What a GET of a stored block does: the block's channel reads into the body's own buffers.
            assertThat(out).isInstanceOf(S3Response.ChannelOutput.class);
            S3Response.ChannelOutput.transfer(new ChannelStream(body, direct), out);
        }, new NettyDataBufferFactory(PooledByteBufAllocator.DEFAULT), executor, 64 * 1024, Duration.ofSeconds(30))
                .subscribe(recorder);

        recorder.done.get(30, TimeUnit.SECONDS);
        assertThat(recorder.bytes.toByteArray()).isEqualTo(body);
        assertThat(recorder.sizes).allMatch(size -> size > 0 && size <= 64 * 1024);
        assertThat(direct).as("the buffers the channel read into were off-heap").isNotEmpty().allMatch(d -> d);
    }

    @Test
    void sendsNoMoreBuffersThanAskedForUntilAskedAgain() throws Exception {
        Recorder recorder = new Recorder(2);

        StreamedBody.publish(out -> {
            for (int i = 0; i < 10; i++) {
                out.write(new byte[100]);
                out.flush();
            }
        }, DefaultDataBufferFactory.sharedInstance, executor, 100, Duration.ofSeconds(30)).subscribe(recorder);

        waitUntil(() -> recorder.sizes.size() >= 2);
        Thread.sleep(300); // room for a third buffer, were one to be sent without demand
        assertThat(recorder.sizes).as("buffers after a request of 2").hasSize(2);
        recorder.subscription.get().request(100);
        recorder.done.get(30, TimeUnit.SECONDS);
        assertThat(recorder.sizes).hasSize(10);
    }

    @Test
    void aCancelledResponseFailsTheWritersNextWrite() throws Exception {
        Recorder recorder = new Recorder(1);
        CompletableFuture<Throwable> writerSaw = new CompletableFuture<>();

        StreamedBody.publish(out -> {
            try {
                for (int i = 0; i < 1_000; i++) {
                    out.write(new byte[10]);
                    out.flush();
                }
                writerSaw.complete(null);
            } catch (IOException e) {
                writerSaw.complete(e);
                throw e;
            }
        }, DefaultDataBufferFactory.sharedInstance, executor, 10, Duration.ofSeconds(30)).subscribe(recorder);

        waitUntil(() -> recorder.sizes.size() == 1); // the cancel comes in the middle of the body
        recorder.subscription.get().cancel();
        assertThat(writerSaw.get(30, TimeUnit.SECONDS)).isInstanceOf(IOException.class).hasMessageContaining("cancelled");
        assertThat(recorder.error.get()).as("a cancelled subscriber hears nothing more").isNull();
    }

    @Test
    void aSubscriberThatAsksForNothingFailsTheBodyAfterTheTimeout() throws Exception {
        Recorder recorder = new Recorder(0);

        StreamedBody.publish(out -> out.write(new byte[10]), DefaultDataBufferFactory.sharedInstance, executor, 1, Duration.ofMillis(200))
            .subscribe(recorder);

        assertThat(recorder.failed.get(30, TimeUnit.SECONDS)).isInstanceOf(IOException.class).hasMessageContaining("no more");
        assertThat(recorder.sizes).isEmpty();
    }

    @Test
    void aCancelledBodyReleasesTheBufferItWasFilling() throws Exception {
        List<DataBuffer> allocated = new CopyOnWriteArrayList<>();
        DataBufferFactory counting = new NettyDataBufferFactory(new UnpooledByteBufAllocator(false)) {
            @Override
            public NettyDataBuffer allocateBuffer(int initialCapacity) {
                NettyDataBuffer buffer = super.allocateBuffer(initialCapacity);
                allocated.add(buffer);
                return buffer;
            }
        };
        Recorder recorder = new Recorder(1);
        CompletableFuture<Void> writerDone = new CompletableFuture<>();

        StreamedBody.publish(out -> {
            try {
                for (int i = 0; i < 1_000; i++) {
                    out.write(new byte[30]);
                }
            } finally {
                writerDone.complete(null);
            }
        }, counting, executor, 64, Duration.ofSeconds(30)).subscribe(recorder);

        // The first buffer delivered, the second filled and waiting for demand: then the cancel.
        waitUntil(() -> recorder.sizes.size() == 1 && allocated.size() == 2);
        recorder.subscription.get().cancel();
        writerDone.get(30, TimeUnit.SECONDS);
        waitUntil(() -> ((NettyDataBuffer) allocated.get(1)).getNativeBuffer().refCnt() == 0);
        assertThat(recorder.sizes).as("delivered before the cancel").hasSize(1);
        assertThat(allocated).as("the delivered buffer (released by its reader) and the one being filled").hasSize(2);
        assertThat(((NettyDataBuffer) allocated.get(1)).getNativeBuffer().refCnt()).as("the unsent buffer's references").isZero();
    }

    /** Waits, at most 30 s, for what another thread does; the assertions after it say what failed. */
    private static void waitUntil(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    /** Records what it receives, asking for {@code initial} buffers first. */
    private static final class Recorder implements Subscriber<DataBuffer> {
        final long initial;
        final AtomicReference<Subscription> subscription = new AtomicReference<>();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final List<Integer> sizes = new CopyOnWriteArrayList<>();
        final AtomicReference<Throwable> error = new AtomicReference<>();
        final CompletableFuture<Void> done = new CompletableFuture<>();
        final CompletableFuture<Throwable> failed = new CompletableFuture<>();

        Recorder(long initial) {
            this.initial = initial;
        }

        @Override
        public void onSubscribe(Subscription s) {
            subscription.set(s);
            if (initial > 0) {
                s.request(initial);
            }
        }

        @Override
        public void onNext(DataBuffer buffer) {
            byte[] chunk = new byte[buffer.readableByteCount()];
            buffer.read(chunk);
            DataBufferUtils.release(buffer);
            synchronized (bytes) {
                bytes.write(chunk, 0, chunk.length);
            }
            sizes.add(chunk.length);
        }

        @Override
        public void onError(Throwable t) {
            error.set(t);
            failed.complete(t);
            done.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            done.complete(null);
        }
    }

    /** A stream that is also a channel, like a stored block's; it notes whether each buffer it fills is off-heap. */
    private static final class ChannelStream extends InputStream implements ReadableByteChannel {
        private final ByteArrayInputStream bytes;
        private final ReadableByteChannel channel;
        private final List<Boolean> direct;

        ChannelStream(byte[] body, List<Boolean> direct) {
            this.bytes = new ByteArrayInputStream(body);
            this.channel = Channels.newChannel(bytes);
            this.direct = direct;
        }

        @Override
        public int read() {
            return bytes.read();
        }

        @Override
        public int read(ByteBuffer target) throws IOException {
            direct.add(target.isDirect());
            return channel.read(target);
        }

        @Override
        public boolean isOpen() {
            return channel.isOpen();
        }
    }
}
