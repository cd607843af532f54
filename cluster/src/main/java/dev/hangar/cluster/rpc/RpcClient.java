package dev.hangar.cluster.rpc;

import dev.hangar.cluster.layout.NodeId;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Calls other nodes' {@link RpcServer}s: one connection per peer address, opened on first use and
 * reopened on the next call after it breaks.
 *
 * <p>Every call has a timeout; calls lost to a broken connection fail with {@link RpcException} at
 * once rather than waiting for it.
 *
 * <p>A connection carries no request until the {@link Handshake} has proven, both ways, that each end
 * knows the cluster secret (inside TLS when configured). A call to a peer whose id is known goes out
 * only if the server proved that very id: a stale address now held by another node fails the call
 * rather than asking the wrong node. The returned futures complete on Netty I/O threads: dependent
 * stages must not block (use the {@code *Async} variants for blocking work).
 */
public final class RpcClient implements AutoCloseable {
    private static final AttributeKey<ClientHandshake> HANDSHAKE = AttributeKey.valueOf("hangar.rpc.handshake");
    private static final AttributeKey<NodeId> SERVER = AttributeKey.valueOf("hangar.rpc.server");

    private final NodeId self;
    private final RpcConfig config;
    private final NetworkFaults faults;
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final CallCounter counter = new CallCounter();
    private final AtomicLong nextRequestId = new AtomicLong();
    private final ConcurrentHashMap<InetSocketAddress, PeerConnection> connections = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** A client with default settings and no faults. */
    public RpcClient(NodeId self, RpcSecurity security) {
        this(self, RpcConfig.defaults(), security, new NetworkFaults());
    }

    /**
     * A client for node {@code self} that authenticates with {@code security}, consulting {@code
     * faults} before every request it sends.
     *
     * @throws IllegalStateException if the TLS certificates cannot be loaded
     */
    public RpcClient(NodeId self, RpcConfig config, RpcSecurity security, NetworkFaults faults) {
        this.self = self;
        this.config = config;
        this.faults = faults;
        RpcTls settings = security.tls();
        SslContext tls = settings == null ? null : settings.clientContext();
        this.group = new MultiThreadIoEventLoopGroup(config.ioThreads(), NioIoHandler.newFactory());
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()))
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(config.writeLowWaterMark(), config.writeHighWaterMark()))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        RpcPipeline.configure(ch.pipeline(), config, tls);
                        ClientHandshake handshake = new ClientHandshake(self, security, config.handshakeTimeout());
                        ch.attr(HANDSHAKE).set(handshake);
                        ch.pipeline().addLast("handshake", handshake);
                        ch.pipeline().addLast("client", new ClientHandler(config.maxQueuedWrites(), config.maxInFlightBytes()));
                    }
                });
    }

    /** Calls per method made by this client, for counting round trips. */
    public CallCounter calls() {
        return counter;
    }

    public NodeId self() {
        return self;
    }

    /**
     * Sends {@code payload} to {@code method} on {@code peer}. The future fails with {@link
     * RpcTimeoutException} if no answer comes within {@code timeout}, {@link RpcRemoteException} if
     * the peer's handler failed, {@link RpcFrameTooLargeException} if the request is too large to
     * send, {@link RpcOverloadedException} if too many calls already wait for the connection, and
     * {@link RpcException} if the peer cannot be reached or the connection breaks.
     */
    public CompletableFuture<byte[]> call(RpcPeer peer, String method, byte[] payload, Duration timeout) {
        counter.increment(method);
        if (closed) {
            return CompletableFuture.failedFuture(new RpcException("RPC client is closed"));
        }
        int size = RpcFrameCodec.frameSize(method, payload.length);
        if (size > config.maxFrameBytes()) {
            return CompletableFuture.failedFuture(new RpcFrameTooLargeException("request " + method + " of "
                    + size + " bytes exceeds the maximum frame of " + config.maxFrameBytes() + " bytes"));
        }
        long requestId = nextRequestId.incrementAndGet();
        RpcFrame frame = new RpcFrame(RpcFrame.Kind.REQUEST, requestId, method, payload);
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        ScheduledFuture<?> timer = group.next().schedule(
                () -> result.completeExceptionally(new RpcTimeoutException(
                        method + " to " + peer.id() + " got no answer within " + timeout.toMillis() + " ms")),
                timeout.toNanos(), TimeUnit.NANOSECONDS);
        result.whenComplete((r, e) -> timer.cancel(false));

        switch (faults.verdict(self, peer.id())) {
            // Lost on the way: only the timer will complete the call, as on a real network.
            case NetworkFaults.Verdict.Drop drop -> {}
            case NetworkFaults.Verdict.Deliver deliver when deliver.delayNanos() > 0 -> group.next().schedule(
                    () -> send(peer, frame, result), deliver.delayNanos(), TimeUnit.NANOSECONDS);
            case NetworkFaults.Verdict.Deliver deliver -> send(peer, frame, result);
        }
        return result;
    }

    private void send(RpcPeer peer, RpcFrame frame, CompletableFuture<byte[]> result) {
        if (result.isDone()) {
            return;
        }
        connections.computeIfAbsent(peer.address(), PeerConnection::new).channel().whenComplete((channel, failure) -> {
            if (failure != null) {
                result.completeExceptionally(new RpcException("cannot connect to " + peer.id() + " at "
                        + peer.address() + ": " + failure.getMessage(), failure));
                return;
            }
            NodeId server = channel.attr(SERVER).get();
            if (peer.identified() && !peer.id().equals(server)) {
                result.completeExceptionally(new RpcException("the node at " + peer.address() + " is " + server
                        + ", not " + peer.id()));
                return;
            }
            ClientHandler handler = channel.pipeline().get(ClientHandler.class);
            if (handler == null) {
                result.completeExceptionally(new RpcException("connection to " + peer.id() + " closed"));
                return;
            }
            channel.eventLoop().execute(() -> handler.send(channel, frame, result));
        });
    }

    /** Closes every connection (pending calls fail) and stops the I/O threads. */
    @Override
    public void close() {
        closed = true;
        connections.values().forEach(PeerConnection::close);
        connections.clear();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** The connection to one address: at most one open or opening channel at a time. */
    private final class PeerConnection {
        private final InetSocketAddress address;
        private @Nullable CompletableFuture<Channel> current;

        PeerConnection(InetSocketAddress address) {
            this.address = address;
        }

        synchronized CompletableFuture<Channel> channel() {
            CompletableFuture<Channel> existing = current;
            if (existing != null && (!existing.isDone() || (!existing.isCompletedExceptionally() && existing.join().isActive()))) {
                return existing;
            }
            CompletableFuture<Channel> opening = new CompletableFuture<>();
            current = opening;
            ChannelFuture connect = bootstrap.connect(address);
            connect.addListener(f -> {
                if (!f.isSuccess()) {
                    forget(opening);
                    opening.completeExceptionally(f.cause());
                    return;
                }
                Channel channel = connect.channel();
                channel.closeFuture().addListener(c -> forget(opening));
                // Requests wait for this future, hence for both ends to have proven themselves.
                channel.attr(HANDSHAKE).get().authenticated().whenComplete((server, failure) -> {
                    if (failure != null) {
                        forget(opening);
                        opening.completeExceptionally(failure);
                    } else {
                        channel.attr(SERVER).set(server);
                        opening.complete(channel);
                    }
                });
            });
            return opening;
        }

        // A failed or closed channel is dropped so that the next call reconnects.
        private synchronized void forget(CompletableFuture<Channel> stale) {
            if (current == stale) {
                current = null;
            }
        }

        synchronized void close() {
            CompletableFuture<Channel> existing = current;
            current = null;
            if (existing != null) {
                existing.thenAccept(Channel::close);
            }
        }
    }
}
