package dev.hangar.cluster.rpc;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The client end of one connection: matches answers to calls by request id and holds calls back
 * while the channel is not writable. All methods but the pending map's removals run on the
 * channel's event loop.
 */
final class ClientHandler extends SimpleChannelInboundHandler<RpcFrame> {
    private record Waiting(RpcFrame frame, CompletableFuture<byte[]> result) {}

    private final int maxQueued;
    private final long maxQueuedBytes;
    private final Map<Long, PendingCall> pending = new ConcurrentHashMap<>();
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    private long waitingBytes;
    private boolean inactive;

    private record PendingCall(String method, CompletableFuture<byte[]> result) {}

    /**
     * @param maxQueued calls that may wait while the channel is not writable
     * @param maxQueuedBytes their payload bytes, all together
     */
    ClientHandler(int maxQueued, long maxQueuedBytes) {
        this.maxQueued = maxQueued;
        this.maxQueuedBytes = maxQueuedBytes;
    }

    /**
     * Sends now if the channel can take it, else queues it, or refuses it when the queue is full in calls or in
     * bytes.
     */
    void send(Channel channel, RpcFrame frame, CompletableFuture<byte[]> result) {
        if (result.isDone()) {
            return;
        }
        if (inactive) {
            result.completeExceptionally(new RpcException("connection " + channel + " closed"));
        } else if (waiting.isEmpty() && channel.isWritable()) {
            write(channel, frame, result);
        } else if (waiting.size() < maxQueued && waitingBytes + frame.payload().length <= maxQueuedBytes) {
            waiting.add(new Waiting(frame, result));
            waitingBytes += frame.payload().length;
        } else {
            result.completeExceptionally(new RpcOverloadedException(waiting.size() + " calls of " + waitingBytes
                    + " bytes already wait for the connection to " + channel.remoteAddress() + " to drain"));
        }
    }

    private void write(Channel channel, RpcFrame frame, CompletableFuture<byte[]> result) {
        long id = frame.requestId();
        pending.put(id, new PendingCall(frame.method(), result));
        // Timeouts complete the future from another thread; the entry must not outlive the call.
        result.whenComplete((r, e) -> pending.remove(id));
        channel.writeAndFlush(frame).addListener(f -> {
            if (!f.isSuccess()) {
                result.completeExceptionally(new RpcException("sending " + frame.method() + " failed: " + f.cause(), f.cause()));
            }
        });
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, RpcFrame frame) {
        PendingCall call = pending.remove(frame.requestId());
        if (call == null) {
            return; // answer to a call that already timed out
        }
        switch (frame.kind()) {
            case RESPONSE -> call.result().complete(frame.payload());
            case ERROR -> call.result().completeExceptionally(
                    new RpcRemoteException(call.method(), new String(frame.payload(), StandardCharsets.UTF_8)));
            case HELLO, CHALLENGE, PROOF, REQUEST -> {
                call.result().completeExceptionally(new RpcException("protocol error: server sent " + frame.kind()));
                ctx.close();
            }
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        Channel channel = ctx.channel();
        while (channel.isWritable() && !waiting.isEmpty()) {
            Waiting next = waiting.poll();
            waitingBytes -= next.frame().payload().length;
            if (!next.result().isDone()) {
                write(channel, next.frame(), next.result());
            }
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        inactive = true;
        RpcException closed = new RpcException("connection to " + ctx.channel().remoteAddress() + " closed");
        waiting.forEach(w -> w.result().completeExceptionally(closed));
        waiting.clear();
        waitingBytes = 0;
        pending.values().forEach(c -> c.result().completeExceptionally(closed));
        pending.clear();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
