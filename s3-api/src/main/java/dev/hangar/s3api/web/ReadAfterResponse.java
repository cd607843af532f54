package dev.hangar.s3api.web;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.LastHttpContent;
import reactor.netty.http.server.HttpServer;

/**
 * Asks the connection for its next request once a response has been written.
 *
 * <p>Reactor Netty 1.3.7 reads a keep-alive connection on demand and can forget to ask again: when a
 * client sends its next request before the previous response's operations have ended (the response
 * was flushed from a worker thread, and a fast client answered before the event loop closed the
 * exchange), the request and its empty last content are queued; the queue is drained with the
 * request answered at once, and no read is requested after it. The connection then sits with the
 * client's next request unread until the client gives up (reactor/reactor-netty#4361, fixed after
 * 1.3.7). A management scrape of the test suite waited 60 s that way one run in a few. A read
 * requested after every response is harmless where Reactor Netty requests one too (one read is
 * pending at a time) and keeps such a connection going.
 */
@ChannelHandler.Sharable
final class ReadAfterResponse extends ChannelOutboundHandlerAdapter {
    private static final ReadAfterResponse HANDLER = new ReadAfterResponse();
    private static final String NAME = "hangar.readAfterResponse";

    private ReadAfterResponse() {
    }

    static HttpServer install(HttpServer server) {
        return AfterHttpCodec.install(server, NAME, HANDLER);
    }

    @Override
    public void write(ChannelHandlerContext context, Object message, ChannelPromise promise) throws Exception {
        if (!(message instanceof LastHttpContent)) {
            super.write(context, message, promise);
            return;
        }
        ChannelPromise tracked = promise.unvoid();
        tracked.addListener(written -> {
            Channel channel = context.channel();
            if (written.isSuccess() && channel.isActive()) {
                // After the tasks already queued: Reactor Netty ends the exchange and drains its queue first.
                channel.eventLoop().execute(() -> {
                    if (channel.isActive()) {
                        channel.read();
                    }
                });
            }
        });
        super.write(context, message, tracked);
    }
}
