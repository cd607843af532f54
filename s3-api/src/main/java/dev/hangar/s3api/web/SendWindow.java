package dev.hangar.s3api.web;

import dev.hangar.s3api.semantics.S3Response;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.AttributeKey;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.channels.ReadableByteChannel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import reactor.netty.Connection;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * Bounds the bytes of a streamed response body that are on their way to the socket (handed to Reactor Netty,
 * not yet written to the kernel), so that a client that does not read costs a bounded amount of memory, and
 * abandons the response once the client has taken nothing for the write timeout.
 *
 * <p>Reactor Netty asks a response body for up to a hundred buffers ahead and queues them until the socket
 * takes them, whatever the client reads: 200 clients that requested an 8 MiB object and never read it held
 * all 256 MiB of direct memory and the server failed with {@code OutOfDirectMemoryError}. Neither the
 * channel's writability nor the body's demand shows that queue, so the window counts bytes itself: the body's
 * stream adds what it hands on, a handler next to the HTTP codec subtracts what the socket has taken (the
 * write's promise completing), and the body's writing thread waits while more than {@link #WINDOW} bytes are
 * outstanding. That thread is a blocking one, so waiting costs no event loop.
 *
 * <p>{@link #install} adds the handler to each connection of a server; {@link #gate} wraps a body's output
 * stream for its connection (or leaves it as it is where the response is not a Reactor Netty one).
 */
@ChannelHandler.Sharable
public final class SendWindow extends ChannelDuplexHandler {
    /** Bytes a response may have on their way to the socket; a little more than the body's own 64 KiB buffers. */
    static final long WINDOW = 256 * 1024;

    private static final SendWindow HANDLER = new SendWindow();
    private static final String NAME = "hangar.sendWindow";
    private static final AttributeKey<Outstanding> OUTSTANDING = AttributeKey.valueOf(NAME);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private SendWindow() {
    }

    /** The server with the window's handler on every HTTP connection. */
    public static HttpServer install(HttpServer server) {
        return server.doOnChannelInit((observer, channel, remote) -> {
            if (channel.pipeline().get(NettyPipeline.HttpCodec) != null && channel.pipeline().get(NAME) == null) {
                channel.attr(OUTSTANDING).set(new Outstanding());
                channel.pipeline().addAfter(NettyPipeline.HttpCodec, NAME, HANDLER);
            }
        });
    }

    /**
     * The body's output stream, held to the window: a write waits while too much is outstanding, and fails
     * with an {@link IOException} once the client has taken nothing for the write timeout (or has gone).
     */
    static OutputStream gate(ServerHttpResponse response, OutputStream out, Duration writeTimeout) {
        Channel channel = channelOf(response);
        Outstanding outstanding = channel == null ? null : channel.attr(OUTSTANDING).get();
        if (channel == null || outstanding == null) {
            return out;
        }
        outstanding.reset();
        return out instanceof S3Response.ChannelOutput
                ? new WindowedChannelStream(out, channel, outstanding, writeTimeout.toNanos())
                : new WindowedStream(out, channel, outstanding, writeTimeout.toNanos());
    }

    @Override
    public void write(ChannelHandlerContext context, Object message, ChannelPromise promise) throws Exception {
        Outstanding outstanding = context.channel().attr(OUTSTANDING).get();
        long size = message instanceof ByteBuf bytes ? bytes.readableBytes()
                : message instanceof ByteBufHolder holder ? holder.content().readableBytes() : 0;
        if (outstanding == null || size == 0) {
            super.write(context, message, promise);
            return;
        }
        ChannelPromise tracked = promise.unvoid();
        // Written or failed: either way the bytes no longer wait in this process.
        tracked.addListener(done -> outstanding.taken(size));
        super.write(context, message, tracked);
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) throws Exception {
        Outstanding outstanding = context.channel().attr(OUTSTANDING).get();
        if (outstanding != null) {
            outstanding.wake();
        }
        super.channelInactive(context);
    }

    private static @Nullable Channel channelOf(ServerHttpResponse response) {
        Object nativeResponse = ServerHttpResponseDecorator.getNativeResponse(response);
        return nativeResponse instanceof Connection connection ? connection.channel() : null;
    }

    /** The bytes of one connection's current response between its body stream and the socket. */
    private static final class Outstanding {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition changed = lock.newCondition();
        private long bytes;
        private long lastProgress = System.nanoTime();

        void reset() {
            lock.lock();
            try {
                bytes = 0;
                lastProgress = System.nanoTime();
            } finally {
                lock.unlock();
            }
        }

        void handed(long count) {
            lock.lock();
            try {
                bytes += count;
            } finally {
                lock.unlock();
            }
        }

        void taken(long count) {
            lock.lock();
            try {
                bytes -= count;
                lastProgress = System.nanoTime();
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }

        void wake() {
            lock.lock();
            try {
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }

        /**
         * Waits while more than the window is outstanding; false once the socket has taken nothing for the
         * timeout. Progress, not the whole wait, is timed: a slow reader that keeps reading is never cut off.
         */
        boolean awaitRoom(Channel channel, long timeoutNanos) throws InterruptedException {
            lock.lock();
            try {
                while (bytes > WINDOW && channel.isActive()) {
                    long idle = System.nanoTime() - lastProgress;
                    if (idle >= timeoutNanos) {
                        return false;
                    }
                    // Bounded waits: the channel closing without a last signal is noticed soon all the same.
                    changed.awaitNanos(Math.min(timeoutNanos - idle, POLL_NANOS));
                }
                return true;
            } finally {
                lock.unlock();
            }
        }
    }

    private static class WindowedStream extends FilterOutputStream {
        private final Channel channel;
        final Outstanding outstanding;
        private final long timeoutNanos;

        WindowedStream(OutputStream out, Channel channel, Outstanding outstanding, long timeoutNanos) {
            super(out);
            this.channel = channel;
            this.outstanding = outstanding;
            this.timeoutNanos = timeoutNanos;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            awaitRoom();
            outstanding.handed(length);
            out.write(bytes, offset, length);
        }

        @Override
        public void write(int b) throws IOException {
            awaitRoom();
            outstanding.handed(1);
            out.write(b);
        }

        void awaitRoom() throws IOException {
            try {
                if (!outstanding.awaitRoom(channel, timeoutNanos)) {
                    throw new IOException("the client took nothing for "
                            + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos) + " s (write timeout): response abandoned");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for the client to read");
            }
            if (!channel.isActive()) {
                throw new IOException("the client closed the connection");
            }
        }
    }

    /** The window over an output that reads channels into its own buffers: each read waits for room first. */
    private static final class WindowedChannelStream extends WindowedStream implements S3Response.ChannelOutput {
        private final S3Response.ChannelOutput direct;

        WindowedChannelStream(OutputStream out, Channel channel, Outstanding outstanding, long timeoutNanos) {
            super(out, channel, outstanding, timeoutNanos);
            this.direct = (S3Response.ChannelOutput) out;
        }

        @Override
        public int readFrom(ReadableByteChannel source) throws IOException {
            awaitRoom();
            int count = direct.readFrom(source);
            if (count > 0) {
                outstanding.handed(count);
            }
            return count;
        }
    }
}
