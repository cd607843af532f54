package dev.hangar.cluster.rpc;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;

/** The framing both ends share: a 4-byte length prefix, then {@link RpcFrameCodec}. */
final class RpcPipeline {
    private RpcPipeline() {}

    static void configure(ChannelPipeline pipeline, RpcConfig config) {
        // The decoder's limit counts the 4-byte prefix too; an oversized frame raises
        // TooLongFrameException, upon which the handlers close the connection.
        pipeline.addLast("frames", new LengthFieldBasedFrameDecoder(config.maxFrameBytes() + 4, 0, 4, 0, 4));
        pipeline.addLast("length", new LengthFieldPrepender(4));
        pipeline.addLast("codec", new RpcFrameCodec());
    }
}
