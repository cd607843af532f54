package dev.hangar.cluster.rpc;

import dev.hangar.cluster.layout.NodeId;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * The client's end of the {@link Handshake}: sends the hello as soon as the connection is up, proves
 * itself once the server's challenge names a compatible cluster, and completes {@link #authenticated}
 * with the server's node id once the server has proven itself in turn. Only then does the client
 * send any request: nothing goes to a server that has not shown it knows the secret.
 *
 * <p>All methods run on the channel's event loop.
 */
final class ClientHandshake extends SimpleChannelInboundHandler<RpcFrame> {
    private static final Logger LOG = Logger.getLogger(RpcClient.class.getName());

    private enum State {
        AWAIT_CHALLENGE,
        AWAIT_PROOF,
        FAILED
    }

    private final NodeId self;
    private final RpcSecurity security;
    private final Duration timeout;
    private final CompletableFuture<NodeId> authenticated = new CompletableFuture<>();
    private State state = State.AWAIT_CHALLENGE;
    private Handshake.@Nullable Hello hello;
    private Handshake.@Nullable Transcript transcript;
    private @Nullable ScheduledFuture<?> deadline;

    ClientHandshake(NodeId self, RpcSecurity security, Duration timeout) {
        this.self = self;
        this.security = security;
        this.timeout = timeout;
    }

    /** Completes with the server's proven node id, or fails if the handshake does. */
    CompletableFuture<NodeId> authenticated() {
        return authenticated;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        deadline = ctx.executor().schedule(
                () -> fail(ctx, "did not complete the handshake within " + timeout.toMillis() + " ms", false),
                timeout.toNanos(), TimeUnit.NANOSECONDS);
        Handshake.Hello sent = new Handshake.Hello(self, Handshake.nonce(), security.clusterId().get());
        hello = sent;
        // Behind TLS, SslHandler holds this until its own handshake is done.
        ctx.writeAndFlush(Handshake.hello(self, sent.nonce(), sent.clusterId()));
        ctx.fireChannelActive();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, RpcFrame frame) {
        switch (state) {
            case FAILED -> {}
            case AWAIT_CHALLENGE -> challenge(ctx, frame);
            case AWAIT_PROOF -> proof(ctx, frame);
        }
    }

    private void challenge(ChannelHandlerContext ctx, RpcFrame frame) {
        Handshake.Hello sent = hello;
        if (frame.kind() != RpcFrame.Kind.CHALLENGE || sent == null) {
            fail(ctx, "sent a " + frame.kind() + " frame instead of a challenge", true);
            return;
        }
        Handshake.Challenge challenge;
        try {
            challenge = Handshake.readChallenge(frame);
        } catch (IllegalArgumentException e) {
            fail(ctx, "sent a malformed challenge: " + e.getMessage(), true);
            return;
        }
        if (!Handshake.sameCluster(sent.clusterId(), challenge.clusterId())) {
            fail(ctx, "is node " + challenge.server() + " of cluster " + challenge.clusterId()
                    + ", but this node belongs to cluster " + sent.clusterId(), true);
            return;
        }
        Handshake.Transcript both = new Handshake.Transcript(sent, challenge);
        transcript = both;
        state = State.AWAIT_PROOF;
        ctx.writeAndFlush(Handshake.proof(security.secret(), Handshake.Role.CLIENT, both));
    }

    private void proof(ChannelHandlerContext ctx, RpcFrame frame) {
        Handshake.Transcript expected = transcript;
        if (frame.kind() != RpcFrame.Kind.PROOF || expected == null) {
            fail(ctx, "sent a " + frame.kind() + " frame instead of its proof", true);
            return;
        }
        if (!Handshake.verify(security.secret(), Handshake.Role.SERVER, expected, frame)) {
            fail(ctx, "claims node id " + expected.challenge().server() + " but failed the cluster secret challenge",
                    true);
            return;
        }
        cancelDeadline();
        ctx.pipeline().get(RpcFrameDecoder.class).authenticated();
        ctx.pipeline().remove(this);
        authenticated.complete(expected.challenge().server());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(ctx, "broke the protocol: " + cause.getMessage(), true);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancelDeadline();
        // The server closes without a word when it refuses our proof or our cluster id.
        authenticated.completeExceptionally(new RpcAuthenticationException("the node at " + ctx.channel().remoteAddress()
                + " closed the connection during the handshake: it refused this node's proof of the cluster secret"
                + " or its cluster id, or it is shutting down"));
        ctx.fireChannelInactive();
    }

    private void fail(ChannelHandlerContext ctx, String reason, boolean warn) {
        if (state == State.FAILED) {
            return;
        }
        state = State.FAILED;
        cancelDeadline();
        ctx.channel().config().setAutoRead(false);
        String message = "the RPC server at " + ctx.channel().remoteAddress() + " " + reason;
        if (warn) {
            LOG.warning(() -> "closing RPC connection to " + ctx.channel().remoteAddress() + ": it " + reason);
        }
        authenticated.completeExceptionally(new RpcAuthenticationException(message));
        ctx.close();
    }

    private void cancelDeadline() {
        ScheduledFuture<?> timer = deadline;
        if (timer != null) {
            timer.cancel(false);
        }
    }
}
