package dev.hangar.distribution;

import dev.hangar.s3api.web.AfterHttpCodec;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import reactor.netty.http.server.HttpServer;

/**
 * Sends interim responses ({@code 100 Continue}) without a {@code Connection} header.
 *
 * <p>Reactor Netty marks every response to a {@code Connection: close} request with {@code connection:
 * close}, the interim {@code 100 Continue} included. Node's HTTP parser takes that header on the interim
 * response as the end of the connection and rejects the final response that follows ("Data after
 * Connection: close"): the AWS SDK for JavaScript v3 with its default agent reported every upload of
 * 2 MiB or more as failed although it was stored. RFC 9110 gives {@code Connection} meaning on the final
 * response only, so it is removed from interim ones; the final response still closes the connection.
 *
 * <p>The handler sits right after the HTTP codec, so it sees each response after Reactor Netty's own
 * handlers have set their headers.
 */
@ChannelHandler.Sharable
final class InterimResponses extends ChannelOutboundHandlerAdapter implements NettyServerCustomizer {
    static final InterimResponses INSTANCE = new InterimResponses();
    private static final String NAME = "hangar.interimResponses";

    private InterimResponses() {
    }

    @Override
    public HttpServer apply(HttpServer server) {
        return AfterHttpCodec.install(server, NAME, this);
    }

    @Override
    public void write(ChannelHandlerContext context, Object message, ChannelPromise promise) throws Exception {
        // 101 Switching Protocols needs its Connection: Upgrade.
        if (message instanceof HttpResponse response
                && response.status().codeClass() == HttpStatusClass.INFORMATIONAL
                && response.status().code() != HttpResponseStatus.SWITCHING_PROTOCOLS.code()) {
            response.headers().remove(HttpHeaderNames.CONNECTION);
        }
        super.write(context, message, promise);
    }
}
