package dev.hangar.cluster.raft;

import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import dev.hangar.cluster.rpc.RpcBroadcast;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcServer;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Tells the other nodes that a setting changed, so that they drop their {@link SettingsCopies} before the change is
 * acknowledged: {@value #METHOD} to every node of the layout, gateways included, in parallel, waiting for the answers
 * at most {@link #WAIT}. A node that does not answer in time (down, partitioned, overloaded) is not waited for
 * further; it serves its copies until they expire. Calls come only over the RPC's authenticated connections and only
 * ever make a node drop copies: a forged one would cost it some forwarded reads.
 */
final class SettingsChanges {
    static final String METHOD = "raft.settings.changed";
    static final Duration WAIT = Duration.ofSeconds(1);
    private static final Logger LOG = Logger.getLogger(SettingsChanges.class.getName());
    private static final byte[] EMPTY = new byte[0];

    private final NodeId self;
    private final RpcClient client;
    private final Function<NodeId, InetSocketAddress> addresses;

    SettingsChanges(NodeId self, RpcClient client, Function<NodeId, InetSocketAddress> addresses) {
        this.self = self;
        this.client = client;
        this.addresses = addresses;
    }

    /** Drops {@code copies} whenever another node says a setting changed. */
    static void serve(RpcServer server, SettingsCopies copies) {
        server.register(METHOD, (from, payload) -> {
            copies.dropAll();
            return CompletableFuture.completedFuture(EMPTY);
        });
    }

    /** Tells every other node of {@code layout} and returns once each answered or {@link #WAIT} passed. */
    void announce(ClusterLayout layout) {
        List<NodeId> others = layout.roles().stream().map(NodeRole::id).filter(node -> !node.equals(self)).toList();
        RpcBroadcast.callAndAwait(client, others, addresses, METHOD, EMPTY, WAIT, (node, failure) -> LOG.log(
                Level.FINE, () -> node + " did not confirm a settings change; it may use its copies until they"
                        + " expire: " + failure));
    }
}
