package dev.hangar.cluster.replication;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.replication.BlockWire.Status;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcPeer;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The client side of the {@code blocks.*} messages: one asynchronous call per method. The futures
 * complete on Netty I/O threads, so whatever is chained on them must not block.
 */
final class BlockPeers {
    private final RpcClient client;
    private final Function<NodeId, InetSocketAddress> resolver;
    private final ReplicationConfig config;

    BlockPeers(RpcClient client, Function<NodeId, InetSocketAddress> resolver, ReplicationConfig config) {
        this.client = client;
        this.resolver = resolver;
        this.config = config;
    }

    /** Stores a copy on {@code node}, chosen as a replica of the block under layout {@code layoutVersion}. */
    CompletableFuture<Void> put(NodeId node, BlockRef block, byte[] data, long layoutVersion) {
        return call(node, BlockWire.PUT, BlockWire.put(block.id(), block.crc32c(), layoutVersion, data),
                config.writeTimeout()).thenApply(answer -> null);
    }

    CompletableFuture<BlockWire.GetReply> get(NodeId node, BlockWire.Get get) {
        return call(node, BlockWire.GET, BlockWire.get(get), config.readTimeout()).thenApply(BlockWire::reply);
    }

    CompletableFuture<Boolean> exists(NodeId node, BlockId id) {
        return call(node, BlockWire.EXISTS, BlockWire.id(id), config.readTimeout())
                .thenApply(answer -> BlockWire.reply(answer).status() == Status.FOUND);
    }

    CompletableFuture<Void> delete(NodeId node, BlockId id) {
        return call(node, BlockWire.DELETE, BlockWire.id(id), config.writeTimeout()).thenApply(answer -> null);
    }

    private CompletableFuture<byte[]> call(NodeId node, String method, byte[] payload, Duration timeout) {
        RpcPeer peer;
        try {
            peer = new RpcPeer(node, resolver.apply(node));
        } catch (RuntimeException unknown) {
            return CompletableFuture.failedFuture(unknown);
        }
        return client.call(peer, method, payload, timeout);
    }
}
