package dev.hangar.cluster.rpc;

import dev.hangar.cluster.layout.NodeId;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * Accepts connections from other nodes and answers their requests with the {@link RpcHandler}
 * registered for each method.
 *
 * <p>Every connection must first pass the {@link Handshake} on the cluster secret (inside TLS when
 * configured); until then no request is decoded for a handler, and a client that fails is closed
 * without an answer. Handlers therefore see only the node ids that callers proved.
 *
 * <p>Handlers run on {@code handlerExecutor} (by default a virtual thread per request), never on a
 * Netty I/O thread, because they touch RocksDB and disk; an I/O thread only decodes and writes.
 * Register handlers before {@link #start}; a request for an unknown method gets an error answer.
 */
public final class RpcServer implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(RpcServer.class.getName());

    private final NodeId self;
    private final RpcConfig config;
    private final RpcSecurity security;
    private final @Nullable SslContext tls;
    private final NetworkFaults faults;
    private final Executor handlerExecutor;
    private final @Nullable ExecutorService ownedExecutor;
    private final Map<String, RpcHandler> handlers = new ConcurrentHashMap<>();
    private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final AtomicLong refusedForSlots = new AtomicLong();
    private HandshakeSlots handshakeSlots = new HandshakeSlots(HandshakeSlots.DEFAULT_TOTAL,
            HandshakeSlots.DEFAULT_PER_ADDRESS);
    private @Nullable EventLoopGroup bossGroup;
    private @Nullable EventLoopGroup workerGroup;
    private @Nullable Channel serverChannel;

    /** A server with default settings, no faults, and a virtual thread per request. */
    public RpcServer(NodeId self, RpcSecurity security) {
        this(self, RpcConfig.defaults(), security, new NetworkFaults(), null);
    }

    /**
     * A server for node {@code self} that admits the clients {@code security} authenticates; {@code
     * handlerExecutor} null runs each request on its own virtual thread.
     *
     * @throws IllegalStateException if the TLS certificates cannot be loaded
     */
    public RpcServer(NodeId self, RpcConfig config, RpcSecurity security, NetworkFaults faults,
            @Nullable Executor handlerExecutor) {
        this.self = self;
        this.config = config;
        this.security = security;
        RpcTls settings = security.tls();
        this.tls = settings == null ? null : settings.serverContext();
        this.faults = faults;
        if (handlerExecutor == null) {
            this.ownedExecutor = Executors.newVirtualThreadPerTaskExecutor();
            this.handlerExecutor = ownedExecutor;
        } else {
            this.ownedExecutor = null;
            this.handlerExecutor = handlerExecutor;
        }
    }

    /** Bounds of connections in their handshake other than the defaults; before {@link #start}. */
    synchronized RpcServer handshakeSlots(int total, int perAddress) {
        if (serverChannel != null) {
            throw new IllegalStateException("already started");
        }
        handshakeSlots = new HandshakeSlots(total, perAddress);
        return this;
    }

    /** Serves {@code method} with {@code handler}, replacing any earlier one. */
    public RpcServer register(String method, RpcHandler handler) {
        handlers.put(method, handler);
        return this;
    }

    /** Binds and starts serving; port 0 picks a free port. Returns the bound address. */
    public synchronized InetSocketAddress start(String host, int port) throws InterruptedException {
        if (serverChannel != null) {
            throw new IllegalStateException("already started");
        }
        bossGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        workerGroup = new MultiThreadIoEventLoopGroup(config.ioThreads(), NioIoHandler.newFactory());
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(bossGroup, workerGroup)
                .channel(NioServerSocketChannel.class)
                // A restarted node must be able to bind its port again while old connections linger in TIME_WAIT.
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(config.writeLowWaterMark(), config.writeHighWaterMark()))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        InetAddress from = ch.remoteAddress().getAddress();
                        if (!handshakeSlots.take(from)) {
                            long count = refusedForSlots.incrementAndGet();
                            // Powers of two only: a flood must not flood the log as well.
                            if (Long.bitCount(count) == 1) {
                                LOG.warning(() -> "refused RPC connection from " + ch.remoteAddress() + ": too many"
                                        + " connections still authenticating (" + count + " refused so far)");
                            }
                            ch.close();
                            return;
                        }
                        channels.add(ch);
                        RpcPipeline.configure(ch.pipeline(), config, tls);
                        ch.pipeline().addLast("handshake", new ServerHandshake(self, security, config.handshakeTimeout(),
                                () -> handshakeSlots.release(from)));
                        ch.pipeline().addLast("server", new ServerHandler());
                    }
                });
        try {
            serverChannel = bootstrap.bind(host, port).sync().channel();
        } catch (RuntimeException | InterruptedException e) {
            shutdownGroups();
            throw e;
        }
        return address();
    }

    /** The bound address; only after {@link #start}. */
    public InetSocketAddress address() {
        Channel channel = serverChannel;
        if (channel == null) {
            throw new IllegalStateException("not started");
        }
        return (InetSocketAddress) channel.localAddress();
    }

    public NodeId self() {
        return self;
    }

    /** Stops accepting, closes every connection (callers see their pending calls fail) and frees the threads. */
    @Override
    public synchronized void close() {
        if (serverChannel != null) {
            serverChannel.close().syncUninterruptibly();
            serverChannel = null;
        }
        channels.close().awaitUninterruptibly();
        shutdownGroups();
        if (ownedExecutor != null) {
            ownedExecutor.shutdownNow();
        }
    }

    private void shutdownGroups() {
        for (EventLoopGroup group : new EventLoopGroup[] {bossGroup, workerGroup}) {
            if (group != null) {
                group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            }
        }
        bossGroup = null;
        workerGroup = null;
    }

    private final class ServerHandler extends SimpleChannelInboundHandler<RpcFrame> {
        /** Payload bytes of this connection's requests being handled; read and written on its event loop only. */
        private long inFlightBytes;

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, RpcFrame frame) {
            switch (frame.kind()) {
                case REQUEST -> dispatch(ctx, frame);
                case HELLO, CHALLENGE, PROOF, RESPONSE, ERROR -> {
                    LOG.warning(() -> "closing " + ctx.channel() + ": a client sent a " + frame.kind() + " frame");
                    ctx.close();
                }
            }
        }

        private void dispatch(ChannelHandlerContext ctx, RpcFrame frame) {
            // Set by ServerHandshake, which stands before this handler until the client proved itself.
            NodeId from = ctx.channel().attr(ServerHandshake.PEER).get();
            if (from == null) {
                LOG.warning(() -> "closing " + ctx.channel() + ": a request arrived before authentication");
                ctx.close();
                return;
            }
            RpcHandler handler = handlers.get(frame.method());
            if (handler == null) {
                reply(ctx, from, error(frame, "no handler for method " + frame.method() + " on node " + self));
                return;
            }
            long size = frame.payload().length;
            inFlightBytes += size;
            updateReading(ctx);
            handlerExecutor.execute(() -> {
                CompletableFuture<byte[]> result;
                try {
                    result = handler.handle(from, frame.payload());
                } catch (Throwable e) {
                    result = CompletableFuture.failedFuture(e);
                }
                result.whenComplete((payload, failure) -> {
                    ctx.executor().execute(() -> {
                        inFlightBytes -= size;
                        updateReading(ctx);
                    });
                    if (failure != null) {
                        reply(ctx, from, error(frame, describe(failure)));
                    } else if (RpcFrameCodec.frameSize("", payload.length) > config.maxFrameBytes()) {
                        reply(ctx, from, error(frame, "response of " + payload.length
                                + " bytes exceeds the maximum frame of " + config.maxFrameBytes() + " bytes"));
                    } else {
                        reply(ctx, from, new RpcFrame(RpcFrame.Kind.RESPONSE, frame.requestId(), "", payload));
                    }
                });
            });
        }

        private void reply(ChannelHandlerContext ctx, NodeId to, RpcFrame answer) {
            NetworkFaults.Verdict verdict = faults.verdict(self, to);
            switch (verdict) {
                case NetworkFaults.Verdict.Drop drop -> {}
                case NetworkFaults.Verdict.Deliver deliver when deliver.delayNanos() > 0 ->
                        ctx.executor().schedule(() -> ctx.writeAndFlush(answer), deliver.delayNanos(), TimeUnit.NANOSECONDS);
                case NetworkFaults.Verdict.Deliver deliver -> ctx.writeAndFlush(answer);
            }
        }

        // Stop reading requests while the answers to earlier ones cannot be written, or while the requests
        // being handled hold more than their bytes' due: the client's unread responses, or its pile of
        // requests, then hold back its further requests through TCP flow control.
        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            updateReading(ctx);
            ctx.fireChannelWritabilityChanged();
        }

        private void updateReading(ChannelHandlerContext ctx) {
            ctx.channel().config().setAutoRead(ctx.channel().isWritable()
                    && inFlightBytes < config.maxInFlightBytes());
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof DecoderException) {
                // A peer's protocol error, not ours: the message says all there is to say.
                LOG.warning(() -> "closing RPC connection " + ctx.channel() + ": " + cause.getMessage());
            } else {
                LOG.log(Level.WARNING, "closing RPC connection " + ctx.channel() + ": " + cause, cause);
            }
            ctx.close();
        }
    }

    // Long messages are cut: an error must never itself be refused as too large.
    private static RpcFrame error(RpcFrame request, String message) {
        if (message.length() > 4096) {
            message = message.substring(0, 4096) + "...";
        }
        return new RpcFrame(RpcFrame.Kind.ERROR, request.requestId(), "", message.getBytes(StandardCharsets.UTF_8));
    }

    private static String describe(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        String message = cause.getMessage();
        return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
