package dev.hangar.bench.load;

import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.BlockStores;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.LayoutPlanner;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import dev.hangar.cluster.replication.ReplicatedBlockStore;
import dev.hangar.cluster.replication.ReplicationConfig;
import dev.hangar.cluster.rpc.ClusterSecret;
import dev.hangar.cluster.rpc.NetworkFaults;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcConfig;
import dev.hangar.cluster.rpc.RpcSecurity;
import dev.hangar.cluster.rpc.RpcServer;
import dev.hangar.cluster.table.ReplicatedTable;
import dev.hangar.cluster.table.RocksDbLocalTable;
import dev.hangar.cluster.table.TableConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Cluster nodes in this JVM, each with its own RPC server and client on loopback, a {@link
 * ReplicatedTable} over RocksDB in {@code dir} and a {@link ReplicatedBlockStore} over an in-memory
 * store; all share one {@link NetworkFaults}, so delays can be injected between any two of them.
 *
 * <p>Storage nodes get one zone each; gateways (capacity 0) hold no partition, so every operation
 * they coordinate goes to remote replicas. The layout is planned once, before any node starts.
 */
final class LoopbackCluster implements AutoCloseable {

    /** One node; {@code blocks} has no local store for a gateway. */
    record Node(NodeId id, NodeRole role, RpcServer server, RpcClient client, RocksDbLocalTable local,
        ReplicatedTable table, @Nullable BlockStore localBlocks, ReplicatedBlockStore blocks) {
        boolean isGateway() {
            return !role.isStorage();
        }
    }

    final NetworkFaults faults = new NetworkFaults();
    // A fresh secret per run: the nodes authenticate their connections as real ones do.
    private final RpcSecurity security = RpcSecurity.of(ClusterSecret.of(
            HexFormat.of().formatHex(new SecureRandom().generateSeed(16))));
    final ClusterLayout layout;
    private final Map<NodeId, InetSocketAddress> addresses = new ConcurrentHashMap<>();
    private final Map<NodeId, Node> nodes = new LinkedHashMap<>();

    /**
     * Starts {@code storage} storage nodes ({@code node-1}...) in zones of their own and {@code
     * gateways} gateways ({@code gateway-1}...), with replication factor {@code replication}.
     */
    LoopbackCluster(Path dir, int storage, int gateways, int replication, TableConfig tableConfig,
        ReplicationConfig replicationConfig) throws InterruptedException, IOException {
        List<NodeRole> roles = new ArrayList<>();
        for (int i = 1; i <= storage; i++) {
            roles.add(new NodeRole(new NodeId("node-" + i), "zone-" + i, 100));
        }
        for (int i = 1; i <= gateways; i++) {
            roles.add(new NodeRole(new NodeId("gateway-" + i), "zone-gateway-" + i, 0));
        }
        this.layout = LayoutPlanner.plan(null, roles, replication);
        try {
            for (NodeRole role : roles) {
                start(dir, role, tableConfig, replicationConfig);
            }
        } catch (RuntimeException | InterruptedException | IOException e) {
            close();
            throw e;
        }
    }

    private void start(Path dir, NodeRole role, TableConfig tableConfig, ReplicationConfig replicationConfig)
        throws InterruptedException, IOException {
        NodeId id = role.id();
        RocksDbLocalTable local = RocksDbLocalTable.open(dir.resolve(id.value()), layout.partitions());
        RpcServer server = new RpcServer(id, RpcConfig.defaults(), security, faults, null);
        RpcClient client = new RpcClient(id, RpcConfig.defaults(), security, faults);
        // Both register their handlers on the server, which must therefore start after them.
        ReplicatedTable table = new ReplicatedTable(tableConfig, id, () -> layout, client, server, this::address, local);
        BlockStore localBlocks = role.isStorage() ? BlockStores.inMemory() : null;
        ReplicatedBlockStore blocks =
            new ReplicatedBlockStore(id, () -> layout, localBlocks, client, server, this::address, replicationConfig);
        Node node = new Node(id, role, server, client, local, table, localBlocks, blocks);
        nodes.put(id, node);
        addresses.put(id, server.start("127.0.0.1", 0));
    }

    private InetSocketAddress address(NodeId id) {
        InetSocketAddress address = addresses.get(id);
        if (address == null) {
            throw new IllegalArgumentException("unknown node " + id);
        }
        return address;
    }

    Node node(String id) {
        Node node = nodes.get(new NodeId(id));
        if (node == null) {
            throw new IllegalArgumentException("unknown node " + id);
        }
        return node;
    }

    /** The same one-way delay plus uniform jitter on every link between two distinct nodes. */
    void delayEverywhere(Duration delay, Duration jitter) {
        faults.clear();
        List<NodeId> ids = new ArrayList<>(nodes.keySet());
        for (int i = 0; i < ids.size(); i++) {
            for (int j = i + 1; j < ids.size(); j++) {
                faults.delayBetween(ids.get(i), ids.get(j), delay, jitter);
            }
        }
    }

    @Override
    public void close() {
        for (Node node : nodes.values()) {
            node.server().close();
        }
        for (Node node : nodes.values()) {
            node.blocks().close();
            node.table().close();
            node.client().close();
            node.local().close();
            if (node.localBlocks() != null) {
                try {
                    node.localBlocks().close();
                } catch (IOException | RuntimeException ignored) {
                    // Closing an in-memory store frees memory only.
                }
            }
        }
        nodes.clear();
    }
}
