package dev.hangar.distribution;

import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.membership.PeerStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The other nodes of the cluster that {@link AbstractS3IT}'s server joins when the suite runs against a
 * cluster: started once per test JVM, before the Spring test server, and closed when the JVM exits. Node
 * {@code n1} is the Spring test server; {@code n2} … {@code nN} are {@link DedicatedServer}s. Zones cycle
 * through {@code zone-a}, {@code zone-b}, {@code zone-c}, so that every partition has a replica in each.
 */
final class SuiteCluster {
    static final String NODES_PROPERTY = "hangar.it.cluster-nodes";
    /** {@code leaderless} (the default) or {@code raft}: the replication mode of the suite's cluster. */
    static final String REPLICATION_PROPERTY = "hangar.it.cluster-replication";

    private static final int NODES = Integer.getInteger(NODES_PROPERTY, 1);
    private static final String REPLICATION = System.getProperty(REPLICATION_PROPERTY, "leaderless");
    private static final List<DedicatedServer> PEERS = new ArrayList<>();
    private static String seed;

    private SuiteCluster() {}

    static boolean isOn() {
        return NODES > 1;
    }

    /**
     * The {@code hangar.*} settings of the Spring test server: none for a single node; otherwise the
     * cluster settings of n1, after starting n2 … nN beside {@code dataDir}.
     */
    static synchronized Map<String, String> properties(Path dataDir) {
        Map<String, String> properties = new LinkedHashMap<>();
        if (!isOn()) {
            return properties;
        }
        if (PEERS.isEmpty()) {
            startPeers(dataDir.resolveSibling(dataDir.getFileName() + "-peers"));
        }
        properties.putAll(clusterSettings(1));
        properties.put("hangar.cluster.seeds", seed);
        properties.put("hangar.storage.sync", "none");
        return properties;
    }

    static List<Integer> peerPorts() {
        return PEERS.stream().map(DedicatedServer::port).toList();
    }

    /** Waits until every node, {@code self} (n1) included, has the first layout and sees all N nodes UP. */
    static void awaitFormed(ClusterNode self) {
        List<ClusterNode> nodes = new ArrayList<>(List.of(self));
        PEERS.forEach(peer -> nodes.add(peer.node()));
        ServerCluster.await(() -> nodes.stream().allMatch(node -> {
            var control = node.control().orElseThrow();
            return control.layout().version() >= 1 && control.statuses().values().stream()
                    .filter(status -> status.state() == PeerStatus.State.UP).count() == NODES;
        }), NODES + " nodes UP on layout 1");
    }

    private static void startPeers(Path dir) {
        for (int i = 2; i <= NODES; i++) {
            List<String> settings = new ArrayList<>();
            clusterSettings(i).forEach((key, value) -> settings.add(key.substring("hangar.".length()) + "=" + value));
            settings.add("storage.sync=none");
            settings.add("s3.domain=" + AbstractS3IT.DOMAIN);
            settings.add("s3.customer-keys-over-http=true");
            settings.add("encryption.master-key-file=" + AbstractS3IT.MASTER_KEY_FILE);
            if (seed != null) {
                settings.add("cluster.seeds=" + seed);
            }
            DedicatedServer peer = DedicatedServer.startWithKeys(dir.resolve("n" + i), AbstractS3IT.ACCESS_KEY,
                    AbstractS3IT.SECRET_KEY, settings.toArray(String[]::new));
            PEERS.add(peer);
            if (seed == null) {
                seed = "127.0.0.1:" + peer.node().control().orElseThrow().address().getPort();
            }
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> PEERS.forEach(DedicatedServer::close), "close-suite-peers"));
    }

    private static Map<String, String> clusterSettings(int node) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("hangar.cluster.enabled", "true");
        settings.put("hangar.cluster.node-id", "n" + node);
        settings.put("hangar.cluster.zone", "zone-" + "abc".charAt((node - 1) % 3));
        settings.put("hangar.cluster.rpc-bind-address", "127.0.0.1");
        settings.put("hangar.cluster.rpc-port", "0");
        settings.put("hangar.cluster.bootstrap-expect", Integer.toString(NODES));
        settings.put("hangar.cluster.ping-interval", "200ms");
        settings.put("hangar.cluster.secret", ServerCluster.SECRET);
        settings.put("hangar.cluster.replication", REPLICATION);
        settings.put("hangar.cluster.raft.port", "0");
        return settings;
    }
}
