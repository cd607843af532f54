package dev.hangar.cluster.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.MessageToMessageCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Converts between length-delimited frames (the prefix is handled by Netty's length codecs) and {@link RpcFrame}. */
final class RpcFrameCodec extends MessageToMessageCodec<ByteBuf, RpcFrame> {
    @Override
    protected void encode(ChannelHandlerContext ctx, RpcFrame frame, List<Object> out) {
        byte[] method = frame.method().getBytes(StandardCharsets.UTF_8);
        ByteBuf buf = ctx.alloc().buffer(frame.encodedSize(method.length));
        buf.writeByte(frame.kind().ordinal());
        buf.writeLong(frame.requestId());
        buf.writeShort(method.length);
        buf.writeBytes(method);
        buf.writeBytes(frame.payload());
        out.add(buf);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf buf, List<Object> out) {
        if (buf.readableBytes() < RpcFrame.FIXED_HEADER_BYTES) {
            throw new DecoderException("frame of " + buf.readableBytes() + " bytes is shorter than a header");
        }
        RpcFrame.Kind kind = RpcFrame.Kind.of(buf.readUnsignedByte());
        long requestId = buf.readLong();
        int methodLength = buf.readUnsignedShort();
        if (methodLength > buf.readableBytes()) {
            throw new DecoderException("method length " + methodLength + " runs past the frame");
        }
        String method = buf.readCharSequence(methodLength, StandardCharsets.UTF_8).toString();
        byte[] payload = ByteBufUtil.getBytes(buf);
        out.add(new RpcFrame(kind, requestId, method, payload));
    }

    /** Bytes a frame with this method and payload takes, without the length prefix. */
    static int frameSize(String method, int payloadLength) {
        return RpcFrame.FIXED_HEADER_BYTES + method.getBytes(StandardCharsets.UTF_8).length + payloadLength;
    }
}
