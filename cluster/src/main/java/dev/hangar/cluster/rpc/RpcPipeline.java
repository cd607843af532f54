package dev.hangar.cluster.rpc;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.ssl.SslContext;
import org.jspecify.annotations.Nullable;

/**
 * The layers both ends share: TLS when configured, a 4-byte length prefix, then {@link
 * RpcFrameCodec}. The handshake handler and the end's own handler come after.
 */
final class RpcPipeline {
    private RpcPipeline() {}

    static void configure(ChannelPipeline pipeline, RpcConfig config, @Nullable SslContext tls) {
        if (tls != null) {
            pipeline.addLast("tls", tls.newHandler(pipeline.channel().alloc()));
        }
        pipeline.addLast("frames", new RpcFrameDecoder(config.maxFrameBytes()));
        pipeline.addLast("length", new LengthFieldPrepender(4));
        pipeline.addLast("codec", new RpcFrameCodec());
    }
}
