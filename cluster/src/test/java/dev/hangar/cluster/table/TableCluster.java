package dev.hangar.cluster.table;

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
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/** Nodes of one replicated table on loopback, each with its own RPC server, client and RocksDB. */
final class TableCluster implements AutoCloseable {
    /** Every node of a test cluster shares this secret. */
    static final RpcSecurity SECURITY = RpcSecurity.of(ClusterSecret.of("test-cluster-secret-0123456789"));
    final NetworkFaults faults = new NetworkFaults();
    final Map<NodeId, InetSocketAddress> addresses = new ConcurrentHashMap<>();
    /** What every node's membership believes of the others; empty: no node known, reads closest first. */
    final Map<NodeId, PeerStatus> statuses = new ConcurrentHashMap<>();
    final Map<NodeId, Node> nodes = new LinkedHashMap<>();
    final ClusterLayout layout;
    final TableConfig config;
    private final Path dir;

    TableCluster(Path dir, TableConfig config, String... ids) throws InterruptedException {
        this.dir = dir;
        this.config = config;
        List<NodeRole> roles = new ArrayList<>();
        for (String id : ids) {
            roles.add(new NodeRole(new NodeId(id), "zone-" + id, 100));
        }
        this.layout = LayoutPlanner.plan(null, roles, 3);
        for (String id : ids) {
            Node node = new Node(new NodeId(id));
            nodes.put(node.id, node);
            node.start();
        }
    }

    Node node(String id) {
        return nodes.get(new NodeId(id));
    }

    List<NodeId> ids() {
        return List.copyOf(nodes.keySet());
    }

    @Override
    public void close() {
        nodes.values().forEach(Node::stop);
    }

    final class Node {
        final NodeId id;
        @Nullable RpcServer server;
        @Nullable RpcClient client;
        @Nullable RocksDbLocalTable local;
        @Nullable ReplicatedTable table;
        @Nullable AntiEntropy antiEntropy;

        Node(NodeId id) {
            this.id = id;
        }

        void start() throws InterruptedException {
            local = RocksDbLocalTable.open(dir.resolve(id.value()), layout.partitions(), config.mergeRule());
            server = new RpcServer(id, RpcConfig.defaults(), SECURITY, faults, null);
            client = new RpcClient(id, RpcConfig.defaults(), SECURITY, faults);
            table = new ReplicatedTable(config, id, () -> layout, () -> Map.copyOf(statuses), client, server,
                    addresses::get, local, new HybridLogicalClock(id));
            antiEntropy =
                    new AntiEntropy(config, id, () -> layout, client, server, addresses::get, local, table.clock());
            addresses.put(id, server.start("127.0.0.1", 0));
        }

        /** Stops the node, as a crash would, keeping its data on disk. */
        void stop() {
            if (server == null) {
                return;
            }
            server.close();
            antiEntropy.close();
            table.close();
            client.close();
            local.close();
            server = null;
        }

        ReplicatedTable table() {
            return table;
        }

        LocalTable local() {
            return local;
        }

        AntiEntropy antiEntropy() {
            return antiEntropy;
        }
    }

    // Helpers of the table tests that run on such a cluster.

    static byte[] b(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** An entry's value as text, {@code <tombstone>} or {@code <none>}. */
    static String valueOf(java.util.Optional<Entry> entry) {
        return entry.map(e -> e.value() == null ? "<tombstone>"
                : new String(e.value(), java.nio.charset.StandardCharsets.UTF_8)).orElse("<none>");
    }

    /** Waits up to 5 s for {@code condition}, failing with {@code what}. */
    static void await(String what, java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(5).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(10);
        }
    }
}
