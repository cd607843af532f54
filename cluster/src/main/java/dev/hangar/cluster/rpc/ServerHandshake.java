package dev.hangar.cluster.rpc;

import dev.hangar.cluster.layout.NodeId;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * The server's end of the {@link Handshake}: until the client has proven that it knows the cluster
 * secret, no frame reaches the request handler. A client that fails in any way — a wrong proof,
 * another cluster id, a frame out of turn, a frame too large, or silence past the timeout — has its
 * connection closed with nothing answered, and a warning names its address. On success the handler
 * records the client's proven node id on the channel and removes itself.
 *
 * <p>All methods run on the channel's event loop.
 */
final class ServerHandshake extends SimpleChannelInboundHandler<RpcFrame> {
    /** The node id the client proved, set once the handshake succeeded. */
    static final AttributeKey<NodeId> PEER = AttributeKey.valueOf("hangar.rpc.peer");

    private static final Logger LOG = Logger.getLogger(RpcServer.class.getName());

    private enum State {
        AWAIT_HELLO,
        AWAIT_PROOF,
        REFUSED
    }

    private final NodeId self;
    private final RpcSecurity security;
    private final Duration timeout;
    private final Runnable ended;
    private State state = State.AWAIT_HELLO;
    private Handshake.@Nullable Transcript transcript;
    private @Nullable ScheduledFuture<?> deadline;

    /** @param ended called once the handshake ended, passed, refused or closed (its handler removed) */
    ServerHandshake(NodeId self, RpcSecurity security, Duration timeout, Runnable ended) {
        this.self = self;
        this.security = security;
        this.timeout = timeout;
        this.ended = ended;
    }

    // Once per handler: after it removed itself on success, or when the closed channel's pipeline is torn down.
    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancelDeadline();
        ended.run();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        deadline = ctx.executor().schedule(
                () -> refuse(ctx, "did not authenticate within " + timeout.toMillis() + " ms"),
                timeout.toNanos(), TimeUnit.NANOSECONDS);
        ctx.fireChannelActive();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, RpcFrame frame) {
        switch (state) {
            case REFUSED -> {} // frames already decoded when the connection was refused
            case AWAIT_HELLO -> hello(ctx, frame);
            case AWAIT_PROOF -> proof(ctx, frame);
        }
    }

    private void hello(ChannelHandlerContext ctx, RpcFrame frame) {
        if (frame.kind() != RpcFrame.Kind.HELLO) {
            refuse(ctx, "sent a " + frame.kind() + " frame before authenticating");
            return;
        }
        Handshake.Hello hello;
        try {
            hello = Handshake.readHello(frame);
        } catch (IllegalArgumentException e) {
            refuse(ctx, "sent a malformed hello: " + e.getMessage());
            return;
        }
        String ours = security.clusterId().get();
        if (!Handshake.sameCluster(hello.clusterId(), ours)) {
            refuse(ctx, "claims node id " + hello.client() + " of cluster " + hello.clusterId()
                    + ", but this node belongs to cluster " + ours);
            return;
        }
        Handshake.Challenge challenge = new Handshake.Challenge(self, Handshake.nonce(), ours);
        transcript = new Handshake.Transcript(hello, challenge);
        state = State.AWAIT_PROOF;
        ctx.writeAndFlush(Handshake.challenge(self, challenge.nonce(), ours));
    }

    private void proof(ChannelHandlerContext ctx, RpcFrame frame) {
        Handshake.Transcript expected = transcript;
        if (frame.kind() != RpcFrame.Kind.PROOF || expected == null) {
            refuse(ctx, "sent a " + frame.kind() + " frame before authenticating");
            return;
        }
        NodeId client = expected.hello().client();
        if (!Handshake.verify(security.secret(), Handshake.Role.CLIENT, expected, frame)) {
            refuse(ctx, "claims node id " + client + " but failed the cluster secret challenge");
            return;
        }
        cancelDeadline();
        ctx.channel().attr(PEER).set(client);
        ctx.pipeline().get(RpcFrameDecoder.class).authenticated();
        ctx.writeAndFlush(Handshake.proof(security.secret(), Handshake.Role.SERVER, expected));
        ctx.pipeline().remove(this);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        refuse(ctx, "broke the protocol: " + cause.getMessage());
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancelDeadline();
        ctx.fireChannelInactive();
    }

    // Reading stops at once, so that whatever else the peer sent is never decoded, let alone answered.
    private void refuse(ChannelHandlerContext ctx, String reason) {
        if (state == State.REFUSED) {
            return;
        }
        state = State.REFUSED;
        cancelDeadline();
        ctx.channel().config().setAutoRead(false);
        LOG.warning(() -> "refused RPC connection from " + ctx.channel().remoteAddress() + ": it " + reason);
        ctx.close();
    }

    private void cancelDeadline() {
        ScheduledFuture<?> timer = deadline;
        if (timer != null) {
            timer.cancel(false);
        }
    }
}
