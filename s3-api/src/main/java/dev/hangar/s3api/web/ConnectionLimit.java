package dev.hangar.s3api.web;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.semantics.HttpDates;
import dev.hangar.s3api.xml.ErrorDocument;
import dev.hangar.s3api.xml.S3Xml;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * The connection limit of a listener: a connection beyond {@code maxConnections} gets {@code 503 SlowDown} for
 * its first request and is closed, as a request beyond the concurrency limit is answered; one beyond a hard cap
 * a quarter higher (at least 16) is closed as it is accepted, so that connections that never send a request
 * cannot hold more file descriptors than that.
 *
 * <p>The answer is written by a handler right after the HTTP codec, before the server's own handlers: the
 * request never reaches the application, its body is not read (the connection closes after the answer rather
 * than be drained), and a client sees the S3 error it backs off and retries on.
 */
final class ConnectionLimit {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionLimit.class);
    private static final String NAME = "hangar.connectionLimit";
    private static final AttributeKey<Boolean> COUNTED = AttributeKey.valueOf("hangar.connectionCounted");

    private ConnectionLimit() {
    }

    /** The hard cap for {@code maxConnections}: connections beyond it are closed at accept. */
    static int hardCap(int maxConnections) {
        return maxConnections + Math.max(16, maxConnections / 4);
    }

    static HttpServer install(HttpServer server, int maxConnections) {
        int hardCap = hardCap(maxConnections);
        AtomicInteger open = new AtomicInteger();
        AtomicLong refused = new AtomicLong();
        SlowDown slowDown = new SlowDown(maxConnections);
        return server.doOnChannelInit((observer, channel, remote) -> {
            if (channel.pipeline().get(NettyPipeline.HttpCodec) == null || channel.hasAttr(COUNTED)) {
                return;
            }
            channel.attr(COUNTED).set(Boolean.TRUE);
            int now = open.incrementAndGet();
            channel.closeFuture().addListener(closed -> open.decrementAndGet());
            if (now > hardCap) {
                long count = refused.incrementAndGet();
                // Logged at the first refusal and every power of two after it: a flood does not flood the log.
                if (Long.bitCount(count) == 1) {
                    LOG.warn("{} connections open: closing new ones at accept ({} so far; hard cap {}, limit {})",
                            now - 1, count, hardCap, maxConnections);
                }
                channel.close();
            } else if (now > maxConnections) {
                channel.pipeline().addAfter(NettyPipeline.HttpCodec, NAME, slowDown);
            }
        });
    }

    /** Answers the first request of a connection beyond the limit {@code 503 SlowDown}, then closes it. */
    @ChannelHandler.Sharable
    private static final class SlowDown extends ChannelInboundHandlerAdapter {
        private static final AttributeKey<Boolean> ANSWERED = AttributeKey.valueOf("hangar.connectionLimitAnswered");
        private final int maxConnections;

        SlowDown(int maxConnections) {
            this.maxConnections = maxConnections;
        }

        @Override
        public void channelRead(ChannelHandlerContext context, Object message) {
            try {
                if (message instanceof HttpRequest request && !context.channel().hasAttr(ANSWERED)) {
                    context.channel().attr(ANSWERED).set(Boolean.TRUE);
                    context.writeAndFlush(answer(request)).addListener(ChannelFutureListener.CLOSE);
                }
            } finally {
                // Nothing of the request goes on: neither its head nor its body reaches the server.
                ReferenceCountUtil.release(message);
            }
        }

        private FullHttpResponse answer(HttpRequest request) {
            String requestId = Exchanges.requestId();
            String path = request.uri().split("\\?", 2)[0];
            byte[] document = S3Xml.renderError(new ErrorDocument(S3Error.SLOW_DOWN.code(),
                    S3Error.SLOW_DOWN.message() + " This listener has more than " + maxConnections
                            + " connections open; retry on a new connection.",
                    path, Map.of(), requestId, requestId));
            boolean head = HttpMethod.HEAD.equals(request.method());
            FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(),
                    HttpResponseStatus.SERVICE_UNAVAILABLE, head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(document));
            response.headers()
                    .set(HttpHeaderNames.CONTENT_TYPE, "application/xml")
                    .set(HttpHeaderNames.CONTENT_LENGTH, head ? 0 : document.length)
                    .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
                    .set("x-amz-request-id", requestId)
                    .set(HttpHeaderNames.SERVER, "Hangar")
                    .set(HttpHeaderNames.DATE, HttpDates.http(Instant.now()));
            return response;
        }
    }
}
