package dev.hangar.s3api.web;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * Closes a connection whose request headers are not complete within the header timeout of their first byte.
 *
 * <p>An idle timeout alone does not stop a slowloris client: a byte every few seconds keeps the connection
 * from ever being idle while its headers never end (3,000 such connections stayed open for a minute). Two
 * handlers share a per-connection deadline: one before the HTTP codec arms it when the first byte of a request
 * arrives, one after the codec disarms it when the codec has read the whole head, and re-opens the watch
 * when the response has been written (keep-alive: the next request's first byte arms it again).
 */
final class RequestHeadDeadline {
    private static final Logger LOG = LoggerFactory.getLogger(RequestHeadDeadline.class);
    private static final String START = "hangar.requestHeadStart";
    private static final String END = "hangar.requestHeadEnd";
    private static final AttributeKey<State> STATE = AttributeKey.valueOf("hangar.requestHead");

    private RequestHeadDeadline() {
    }

    static HttpServer install(HttpServer server, Duration headerTimeout) {
        long timeoutNanos = headerTimeout.toNanos();
        Start start = new Start(timeoutNanos);
        End end = new End();
        return server.doOnChannelInit((observer, channel, remote) -> {
            if (channel.pipeline().get(NettyPipeline.HttpCodec) != null && channel.pipeline().get(START) == null) {
                channel.attr(STATE).set(new State());
                channel.pipeline().addBefore(NettyPipeline.HttpCodec, START, start);
                channel.pipeline().addAfter(NettyPipeline.HttpCodec, END, end);
            }
        });
    }

    /** Per connection: whether a request head is being read, and the task that ends it when it takes too long. */
    private static final class State {
        boolean watching = true;
        ScheduledFuture<?> deadline;

        void disarm() {
            if (deadline != null) {
                deadline.cancel(false);
                deadline = null;
            }
        }
    }

    @ChannelHandler.Sharable
    private static final class Start extends ChannelInboundHandlerAdapter {
        private final long timeoutNanos;

        Start(long timeoutNanos) {
            this.timeoutNanos = timeoutNanos;
        }

        @Override
        public void channelRead(ChannelHandlerContext context, Object message) throws Exception {
            State state = context.channel().attr(STATE).get();
            if (state != null && state.watching && state.deadline == null && message instanceof ByteBuf bytes
                    && bytes.isReadable()) {
                Channel channel = context.channel();
                state.deadline = context.executor().schedule(() -> {
                    LOG.debug("closing {}: request headers not complete within {} ms", channel.remoteAddress(),
                            TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
                    channel.close();
                }, timeoutNanos, TimeUnit.NANOSECONDS);
            }
            super.channelRead(context, message);
        }

        @Override
        public void channelInactive(ChannelHandlerContext context) throws Exception {
            State state = context.channel().attr(STATE).get();
            if (state != null) {
                state.disarm();
            }
            super.channelInactive(context);
        }
    }

    @ChannelHandler.Sharable
    private static final class End extends ChannelDuplexHandler {
        @Override
        public void channelRead(ChannelHandlerContext context, Object message) throws Exception {
            State state = context.channel().attr(STATE).get();
            if (state != null && message instanceof HttpRequest) {
                state.disarm();
                state.watching = false;
            }
            super.channelRead(context, message);
        }

        @Override
        public void write(ChannelHandlerContext context, Object message, ChannelPromise promise) throws Exception {
            State state = context.channel().attr(STATE).get();
            if (state != null && message instanceof LastHttpContent) {
                // The response is complete: the next bytes on this connection start another request.
                state.watching = true;
            }
            super.write(context, message, promise);
        }
    }
}
