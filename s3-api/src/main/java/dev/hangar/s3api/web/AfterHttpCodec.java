package dev.hangar.s3api.web;

import io.netty.channel.ChannelHandler;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * Adds a shared handler right after the HTTP codec of every HTTP/1.1 connection of a server, once: where a
 * handler sees each request as the codec decoded it and each response as Reactor Netty's own handlers left it.
 */
public final class AfterHttpCodec {
    private AfterHttpCodec() {
    }

    /** The server with {@code handler} (which must be {@link ChannelHandler.Sharable}) named {@code name} on each connection. */
    public static HttpServer install(HttpServer server, String name, ChannelHandler handler) {
        return server.doOnChannelInit((observer, channel, remote) -> {
            if (channel.pipeline().get(NettyPipeline.HttpCodec) != null && channel.pipeline().get(name) == null) {
                channel.pipeline().addAfter(NettyPipeline.HttpCodec, name, handler);
            }
        });
    }
}
