package dev.hangar.cluster.meta;

import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.LayoutPlanner;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import dev.hangar.cluster.rpc.ClusterSecret;
import dev.hangar.cluster.rpc.NetworkFaults;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcConfig;
import dev.hangar.cluster.rpc.RpcSecurity;
import dev.hangar.cluster.rpc.RpcServer;
import dev.hangar.cluster.table.AntiEntropy;
import dev.hangar.cluster.table.ReplicatedTable;
import dev.hangar.cluster.table.RocksDbLocalTable;
import dev.hangar.cluster.table.TableConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Nodes of the metadata table on loopback, each with its own RPC server and client, table replica
 * and (once asked for) metadata store; replication factor 3, so with three nodes every node
 * replicates every partition.
 */
final class MetaCluster implements AutoCloseable {
    /** Every node of a test cluster shares this secret. */
    static final RpcSecurity SECURITY = RpcSecurity.of(ClusterSecret.of("test-cluster-secret-0123456789"));
    final NetworkFaults faults = new NetworkFaults();
    final Map<NodeId, InetSocketAddress> addresses = new ConcurrentHashMap<>();
    final Map<NodeId, Node> nodes = new LinkedHashMap<>();
    final ClusterLayout layout;
    private final TableConfig config;
    private final Path dir;

    MetaCluster(Path dir, TableConfig config, String... ids) throws InterruptedException {
        this.dir = dir;
        // The metadata table's entries merge by the store's rule, whatever the test's quorums.
        this.config = config.withMergeRule(ReplicatedMetadataStore.MERGE_RULE);
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
        @Nullable SettingsInvalidation invalidation;
        @Nullable ReplicatedMetadataStore store;

        Node(NodeId id) {
            this.id = id;
        }

        void start() throws InterruptedException {
            local = RocksDbLocalTable.open(dir.resolve(id.value()).resolve("table"), layout.partitions(),
                    config.mergeRule());
            server = new RpcServer(id, RpcConfig.defaults(), SECURITY, faults, null);
            client = new RpcClient(id, RpcConfig.defaults(), SECURITY, faults);
            table = new ReplicatedTable(config, id, () -> layout, client, server, addresses::get, local);
            antiEntropy =
                    new AntiEntropy(config, id, () -> layout, client, server, addresses::get, local, table.clock());
            invalidation = new SettingsInvalidation(id, () -> layout, client, server, addresses::get,
                    SettingsInvalidation.DEFAULT_WAIT);
            addresses.put(id, server.start("127.0.0.1", 0));
        }

        /** A new store on this node's table and garbage directory; the node closes it when it stops. */
        ReplicatedMetadataStore openStore() {
            return openStore(ReplicatedMetadataStore.DEFAULT_SETTINGS_TTL);
        }

        /** As {@link #openStore()}, keeping settings read from the quorum for {@code settingsTtl}. */
        ReplicatedMetadataStore openStore(Duration settingsTtl) {
            // No garbage grace: the contract expects queued blocks back at once.
            return openStore(settingsTtl, Duration.ZERO);
        }

        /** As {@link #openStore(Duration)}, with this garbage grace. */
        ReplicatedMetadataStore openStore(Duration settingsTtl, Duration garbageGrace) {
            store = new ReplicatedMetadataStore(table, dir.resolve(id.value()).resolve("garbage"),
                    settingsTtl, garbageGrace, invalidation);
            return store;
        }

        ReplicatedMetadataStore store() {
            return store == null ? openStore() : store;
        }

        /** Stops the node, as a crash would, keeping its data on disk. */
        void stop() {
            if (server == null) {
                return;
            }
            if (store != null) {
                store.close();
                store = null;
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

        RocksDbLocalTable local() {
            return local;
        }

        AntiEntropy antiEntropy() {
            return antiEntropy;
        }
    }
}
