package dev.hangar.cluster.replication;

import dev.hangar.blockstore.BlockStore;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.LayoutPlanner;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.rpc.ClusterSecret;
import dev.hangar.cluster.rpc.NetworkFaults;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcConfig;
import dev.hangar.cluster.rpc.RpcSecurity;
import dev.hangar.cluster.rpc.RpcServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * In-process nodes on loopback with random ports, sharing one network-fault hook, one layout and one
 * membership view: the node states every node believes, set by the test (none known at first).
 */
final class TestCluster implements AutoCloseable {
    /** Every node of a test cluster shares this secret. */
    static final RpcSecurity SECURITY = RpcSecurity.of(ClusterSecret.of("test-cluster-secret-0123456789"));
    /** Short timeouts keep the tests that wait for a silent replica quick; no background worker. */
    static final ReplicationConfig CONFIG = new ReplicationConfig(
            2, Duration.ofMillis(500), Duration.ofMillis(500), ReplicationConfig.DEFAULT_MAX_BLOCK_BYTES, Duration.ZERO);

    final NetworkFaults faults = new NetworkFaults();
    final AtomicReference<ClusterLayout> layout = new AtomicReference<>(ClusterLayout.empty(256, 3));
    private final Map<NodeId, InetSocketAddress> addresses = new ConcurrentHashMap<>();
    private final Map<NodeId, PeerStatus> statuses = new ConcurrentHashMap<>();
    private final Map<String, Node> nodes = new LinkedHashMap<>();

    /** One node: {@code local} is null for a gateway. */
    static final class Node {
        final NodeId id;
        final NodeRole role;
        final @Nullable BlockStore local;
        final RpcClient client;
        final ReplicationConfig config;
        final @Nullable Path resyncDir;
        ReplicatedBlockStore store;
        RpcServer server;

        Node(NodeId id, NodeRole role, @Nullable BlockStore local, RpcClient client, ReplicationConfig config,
                @Nullable Path resyncDir, ReplicatedBlockStore store, RpcServer server) {
            this.id = id;
            this.role = role;
            this.local = local;
            this.client = client;
            this.config = config;
            this.resyncDir = resyncDir;
            this.store = store;
            this.server = server;
        }

        BlockStore local() {
            if (local == null) {
                throw new IllegalStateException(id + " is a gateway");
            }
            return local;
        }
    }

    Node start(String name, String zone, long capacity, @Nullable BlockStore local) throws InterruptedException {
        return start(name, zone, capacity, local, CONFIG);
    }

    Node start(String name, String zone, long capacity, @Nullable BlockStore local, ReplicationConfig config)
            throws InterruptedException {
        return start(name, zone, capacity, local, config, null);
    }

    /** A node whose resync queue is kept in {@code resyncDir} (null: in memory). */
    Node start(String name, String zone, long capacity, @Nullable BlockStore local, ReplicationConfig config,
            @Nullable Path resyncDir) throws InterruptedException {
        return start(name, zone, capacity, local, config, resyncDir, layout::get);
    }

    /** A node that sees the layout {@code view} gives instead of the cluster's: one that lags behind. */
    Node start(String name, String zone, long capacity, @Nullable BlockStore local, Supplier<ClusterLayout> view)
            throws InterruptedException {
        return start(name, zone, capacity, local, CONFIG, null, view);
    }

    private Node start(String name, String zone, long capacity, @Nullable BlockStore local, ReplicationConfig config,
            @Nullable Path resyncDir, Supplier<ClusterLayout> view) throws InterruptedException {
        NodeId id = new NodeId(name);
        RpcServer server = new RpcServer(id, RpcConfig.defaults(), SECURITY, faults, null);
        RpcClient client = new RpcClient(id, RpcConfig.defaults(), SECURITY, faults);
        ReplicatedBlockStore store =
                new ReplicatedBlockStore(id, view, this::statuses, local, client, server, this::address, config,
                        resyncDir);
        addresses.put(id, server.start("127.0.0.1", 0));
        Node node = new Node(id, new NodeRole(id, zone, capacity), local, client, config, resyncDir, store, server);
        nodes.put(name, node);
        return node;
    }

    Node node(String name) {
        return nodes.get(name);
    }

    List<Node> nodes() {
        return new ArrayList<>(nodes.values());
    }

    /** Plans a layout from the previous one for the given nodes, makes it current and returns it. */
    ClusterLayout plan(Node... members) {
        List<NodeRole> roles = new ArrayList<>();
        for (Node member : members) {
            roles.add(member.role);
        }
        ClusterLayout previous = layout.get();
        ClusterLayout next = LayoutPlanner.plan(previous.version() == 0 ? null : previous, roles, 3);
        layout.set(next);
        return next;
    }

    /** Stops a node's RPC server: callers get connection refused, as from a stopped process. */
    void stop(Node node) {
        node.server.close();
    }

    /** Starts the node's RPC server again on its old port, serving the same local store. */
    void restart(Node node) throws InterruptedException {
        RpcServer server = new RpcServer(node.id, RpcConfig.defaults(), SECURITY, faults, null);
        // Serves the node's copies only: copies that land late during a layout change are not passed on.
        new BlockService(node.local, (block, layoutVersion) -> {}).register(server);
        server.start("127.0.0.1", addresses.get(node.id).getPort());
        node.server = server;
    }

    /**
     * Closes the node's replicated store and server and opens new ones on the same port and resync
     * folder, as a restarted process would; the local store stays open, as it survives on disk.
     */
    void reopen(Node node) throws InterruptedException {
        node.store.close();
        node.server.close();
        RpcServer server = new RpcServer(node.id, RpcConfig.defaults(), SECURITY, faults, null);
        node.store = new ReplicatedBlockStore(node.id, layout::get, this::statuses, node.local, node.client, server,
                this::address, node.config, node.resyncDir);
        server.start("127.0.0.1", addresses.get(node.id).getPort());
        node.server = server;
    }

    /** Makes every node believe {@code node} is in {@code state}, as membership would after pings. */
    void believe(Node node, PeerStatus.State state) {
        statuses.put(node.id, new PeerStatus(node.id, node.role.zone(), node.role.capacity(), address(node.id), state,
                Instant.now(), layout.get().version()));
    }

    // A snapshot, as membership gives: a read orders its replicas by one view.
    private Map<NodeId, PeerStatus> statuses() {
        return Map.copyOf(statuses);
    }

    private InetSocketAddress address(NodeId id) {
        InetSocketAddress address = addresses.get(id);
        if (address == null) {
            throw new IllegalArgumentException("unknown node " + id);
        }
        return address;
    }

    @Override
    public void close() throws IOException {
        for (Node node : nodes.values()) {
            node.store.close();
            node.client.close();
            node.server.close();
            if (node.local != null) {
                node.local.close();
            }
        }
    }
}
