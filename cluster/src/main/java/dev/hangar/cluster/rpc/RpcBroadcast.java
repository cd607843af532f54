package dev.hangar.cluster.rpc;

import dev.hangar.cluster.layout.NodeId;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * One call to each of several nodes at once, for notices whose sender waits for whoever answers in time and carries
 * on without the others (a node down or partitioned must not hold up the change it is told of).
 */
public final class RpcBroadcast {
    private RpcBroadcast() {}

    /**
     * Calls {@code method} on every node of {@code nodes} in parallel and returns once each answered, failed or timed
     * out; each failure goes to {@code failed}, never to the caller.
     */
    public static void callAndAwait(RpcClient client, Collection<NodeId> nodes,
            Function<NodeId, InetSocketAddress> addresses, String method, byte[] payload, Duration timeout,
            BiConsumer<NodeId, Throwable> failed) {
        List<CompletableFuture<?>> calls = new ArrayList<>();
        for (NodeId node : nodes) {
            CompletableFuture<byte[]> call;
            try {
                call = client.call(new RpcPeer(node, addresses.apply(node)), method, payload, timeout);
            } catch (RuntimeException e) {
                // An address never learnt: that node cannot have heard of anything to be told about either.
                call = CompletableFuture.failedFuture(e);
            }
            calls.add(call.handle((answer, failure) -> {
                if (failure != null) {
                    failed.accept(node, failure);
                }
                return null;
            }));
        }
        // Each call ends by its timeout at the latest.
        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).join();
    }
}
