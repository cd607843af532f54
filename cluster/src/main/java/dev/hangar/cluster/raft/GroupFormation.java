package dev.hangar.cluster.raft;

import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.LayoutCodec;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcPeer;
import dev.hangar.cluster.rpc.RpcServer;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The layout a cluster's Raft groups were formed on, which fixes where each bucket's commands go ({@link GroupPlan})
 * for good. A node that joins later, or first hears of the cluster after its first layout, asks the others for it on
 * their RPC port ({@code raft.groups}, authenticated like every RPC) instead of forming groups of its own from the
 * layout it happens to see. An empty answer: that node has no groups yet.
 */
final class GroupFormation {
    static final String METHOD = "raft.groups";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final RpcClient client;
    private final Function<NodeId, InetSocketAddress> rpcAddresses;

    GroupFormation(RpcClient client, Function<NodeId, InetSocketAddress> rpcAddresses) {
        this.client = client;
        this.rpcAddresses = rpcAddresses;
    }

    /** Answers other nodes with the layout this node's groups were formed on, if they were. */
    static void serve(RpcServer server, Supplier<@Nullable ClusterLayout> formation) {
        server.register(METHOD, (from, payload) -> {
            ClusterLayout layout = formation.get();
            return CompletableFuture.completedFuture(layout == null ? new byte[0] : LayoutCodec.encode(layout));
        });
    }

    /** The layout {@code node} formed its groups on; empty if it has none yet. */
    CompletableFuture<Optional<ClusterLayout>> ask(NodeId node) {
        return client.call(new RpcPeer(node, rpcAddresses.apply(node)), METHOD, new byte[0], TIMEOUT)
                .thenApply(answer -> answer.length == 0 ? Optional.empty() : Optional.of(LayoutCodec.decode(answer)));
    }
}
