package dev.hangar.cluster.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;

/**
 * Splits the byte stream into frames by their 4-byte length prefix. Until the connection has
 * authenticated, a frame may be at most {@link Handshake#MAX_FRAME_BYTES}, checked from the prefix
 * alone: a peer that has proven nothing must not make this node buffer megabytes.
 */
final class RpcFrameDecoder extends LengthFieldBasedFrameDecoder {
    private boolean authenticated;

    /** {@code maxFrameBytes} is the limit once authenticated, without the prefix. */
    RpcFrameDecoder(int maxFrameBytes) {
        // The decoder's limit counts the 4-byte prefix too; an oversized frame raises
        // TooLongFrameException, upon which the handlers close the connection.
        super(maxFrameBytes + 4, 0, 4, 0, 4);
    }

    /** Lifts the handshake's limit; called on the channel's event loop once both ends proved themselves. */
    void authenticated() {
        authenticated = true;
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (!authenticated && in.readableBytes() >= 4) {
            long length = in.getUnsignedInt(in.readerIndex());
            if (length > Handshake.MAX_FRAME_BYTES) {
                in.skipBytes(in.readableBytes());
                throw new TooLongFrameException("frame of " + length + " bytes before authentication (at most "
                        + Handshake.MAX_FRAME_BYTES + ")");
            }
        }
        return super.decode(ctx, in);
    }
}
