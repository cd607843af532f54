package dev.hangar.cluster.raft;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcPeer;
import dev.hangar.cluster.rpc.RpcServer;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.IntSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Where each node's Raft server listens. Each node answers {@code raft.port} on its RPC port (authenticated like
 * every RPC) with its Raft port; the host is the one its RPC address has, so a node advertised by name is reached by
 * that name. Ports differ between nodes when they are picked at start (tests), so they are asked, not configured.
 */
final class RaftAddresses {
    static final String METHOD = "raft.port";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final RpcClient client;
    private final Function<NodeId, InetSocketAddress> rpcAddresses;
    private final Map<NodeId, InetSocketAddress> known = new ConcurrentHashMap<>();
    // This node: its RPC address is known only once the RPC port is bound, after the services are built.
    private volatile @Nullable NodeId self;
    private volatile int selfPort;

    RaftAddresses(RpcClient client, Function<NodeId, InetSocketAddress> rpcAddresses) {
        this.client = client;
        this.rpcAddresses = rpcAddresses;
    }

    /** Answers other nodes' questions with this node's Raft port, once the server is bound. */
    static void serve(RpcServer server, IntSupplier port) {
        server.register(METHOD, (from, payload) -> CompletableFuture.completedFuture(
                ByteBuffer.allocate(Integer.BYTES).putInt(port.getAsInt()).array()));
    }

    /**
     * Records this node's own address, which needs no call: the host other nodes reach its RPC port at, and the
     * Raft port it bound. Every member thus names every member alike in the groups it adds.
     */
    void own(NodeId self, int port) {
        this.self = self;
        this.selfPort = port;
    }

    /** The Raft address of {@code node}: known, or asked of it (and remembered). */
    CompletableFuture<InetSocketAddress> of(NodeId node) {
        InetSocketAddress cached = known.get(node);
        if (cached != null) {
            return CompletableFuture.completedFuture(cached);
        }
        InetSocketAddress rpc = rpcAddresses.apply(node);
        if (node.equals(self)) {
            InetSocketAddress own = InetSocketAddress.createUnresolved(rpc.getHostString(), selfPort);
            known.put(node, own);
            return CompletableFuture.completedFuture(own);
        }
        return client.call(new RpcPeer(node, rpc), METHOD, new byte[0], TIMEOUT).thenApply(answer -> {
            int port = ByteBuffer.wrap(answer).getInt();
            InetSocketAddress address = InetSocketAddress.createUnresolved(rpc.getHostString(), port);
            known.put(node, address);
            return address;
        });
    }
}
