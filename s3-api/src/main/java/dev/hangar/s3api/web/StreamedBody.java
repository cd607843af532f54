package dev.hangar.s3api.web;

import dev.hangar.s3api.semantics.S3Response;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

/**
 * A response body that a blocking writer produces through an {@link OutputStream} on an executor's thread (the
 * stream is closed after {@link S3Response.Writer#writeTo} returns; {@code abandon} is the caller's business),
 * published as buffers of at most {@code chunkSize} bytes, never more buffers than the subscriber asked for.
 * The writer waits for demand, at most the write timeout at a time, and learns of a cancelled response by
 * an {@link IOException} from its stream.
 *
 * <p>It takes the place of Spring's {@code DataBufferUtils.outputStreamPublisher}: under warp's GET of 1 MiB
 * objects from 8 clients, about one run of 30 s in three left a response stalled forever, its writer parked
 * in that publisher waiting for demand while the connection had nothing left to send. Here demand is what
 * Reactor's own {@link FluxSink} counts, each request wakes the writer under one lock, and a wait is bounded.
 */
final class StreamedBody {

    private StreamedBody() {
    }

    static Flux<DataBuffer> publish(S3Response.Writer writer, DataBufferFactory buffers, Executor executor, int chunkSize, Duration demandTimeout) {
        return Flux.create(sink -> {
            Demand demand = new Demand();
            sink.onRequest(demand::requested);
            sink.onCancel(demand::cancel);
            try {
                executor.execute(() -> write(writer, sink, demand, buffers, chunkSize, demandTimeout.toNanos()));
            } catch (RejectedExecutionException e) {
                sink.error(e);
            }
        }, FluxSink.OverflowStrategy.BUFFER);
    }

    private static void write(S3Response.Writer writer, FluxSink<DataBuffer> sink, Demand demand, DataBufferFactory buffers, int chunkSize,
            long timeoutNanos) {
        try (OutputStream out = new SinkStream(sink, demand, buffers, chunkSize, timeoutNanos)) {
            writer.writeTo(out);
        } catch (IOException | RuntimeException e) {
            if (!demand.cancelled()) {
                sink.error(e);
            }
            return;
        }
        sink.complete();
    }

    /**
     * Waits for the subscriber's demand, which the sink itself counts ({@link FluxSink#requestedFromDownstream});
     * a request or a cancellation wakes the waiting writer.
     */
    private static final class Demand {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition changed = lock.newCondition();
        private boolean cancelled;

        void requested(long count) {
            lock.lock();
            try {
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }

        void cancel() {
            lock.lock();
            try {
                cancelled = true;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }

        boolean cancelled() {
            lock.lock();
            try {
                return cancelled;
            } finally {
                lock.unlock();
            }
        }

        /** Returns once the sink may send one more buffer, waiting for that at most {@code timeoutNanos}. */
        void await(FluxSink<DataBuffer> sink, long timeoutNanos) throws IOException {
            lock.lock();
            try {
                long left = timeoutNanos;
                // Checked under the lock that a request takes to signal: a request between the check and the
                // wait cannot be missed.
                while (sink.requestedFromDownstream() == 0 && !cancelled) {
                    if (left <= 0) {
                        throw new IOException("the connection asked for no more of the response body for "
                            + Duration.ofNanos(timeoutNanos));
                    }
                    left = changed.awaitNanos(left);
                }
                if (cancelled) {
                    throw new IOException("the response was cancelled");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting to send the response body", e);
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Fills buffers of the chunk size from the factory (pooled, off-heap under Reactor Netty) straight from the
     * writer's arrays, or from a channel it reads into them ({@link S3Response.ChannelOutput}: a block file is read
     * by the kernel straight into the buffer), and sends each when it is full, flushed or closed and demand
     * allows.
     */
    private static final class SinkStream extends OutputStream implements S3Response.ChannelOutput {
        private final FluxSink<DataBuffer> sink;
        private final Demand demand;
        private final DataBufferFactory buffers;
        private final int chunkSize;
        private final long timeoutNanos;
        private @Nullable DataBuffer filling;

        SinkStream(FluxSink<DataBuffer> sink, Demand demand, DataBufferFactory buffers, int chunkSize, long timeoutNanos) {
            this.sink = sink;
            this.demand = demand;
            this.buffers = buffers;
            this.chunkSize = chunkSize;
            this.timeoutNanos = timeoutNanos;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            int from = offset;
            int left = length;
            while (left > 0) {
                DataBuffer buffer = filling();
                int count = Math.min(left, chunkSize - buffer.readableByteCount());
                buffer.write(bytes, from, count);
                from += count;
                left -= count;
                if (buffer.readableByteCount() >= chunkSize) {
                    send();
                }
            }
        }

        @Override
        public int readFrom(ReadableByteChannel source) throws IOException {
            DataBuffer buffer = filling();
            int count;
            try (DataBuffer.ByteBufferIterator writable = buffer.writableByteBuffers()) {
                ByteBuffer target = writable.next();
                target.limit(Math.min(target.limit(), target.position() + chunkSize - buffer.readableByteCount()));
                count = source.read(target);
            }
            if (count > 0) {
                buffer.writePosition(buffer.writePosition() + count);
                if (buffer.readableByteCount() >= chunkSize) {
                    send();
                }
            }
            return count;
        }

        private DataBuffer filling() {
            DataBuffer buffer = filling;
            if (buffer == null) {
                buffer = buffers.allocateBuffer(chunkSize);
                filling = buffer;
            }
            return buffer;
        }

        @Override
        public void flush() throws IOException {
            send();
        }

        @Override
        public void close() throws IOException {
            try {
                send();
            } finally {
                // A body that failed or was cancelled leaves its last buffer here; nobody else will release it.
                DataBuffer unsent = filling;
                filling = null;
                if (unsent != null) {
                    DataBufferUtils.release(unsent);
                }
            }
        }

        private void send() throws IOException {
            DataBuffer buffer = filling;
            if (buffer == null || buffer.readableByteCount() == 0) {
                return;
            }
            demand.await(sink, timeoutNanos);
            filling = null;
            sink.next(buffer);
        }
    }
}
