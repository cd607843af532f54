package dev.hangar.cluster;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.membership.Await;
import dev.hangar.cluster.membership.ClusterSettings;
import dev.hangar.cluster.membership.MembershipTiming;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.membership.ReplicaOrder;
import dev.hangar.cluster.replication.ReplicatedBlockStore;
import dev.hangar.cluster.replication.ReplicationConfig;
import dev.hangar.cluster.replication.ReplicationStats;
import dev.hangar.cluster.rpc.ClusterSecret;
import dev.hangar.cluster.table.ReplicatedTable;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole leaderless cluster nodes on loopback, in this JVM: three storage nodes and a gateway, with
 * fast pings and the default timeouts of chunk reads and table calls.
 */
@Timeout(120)
class ClusteredNodeTest {
    private static final ClusterSecret SECRET = ClusterSecret.of("clustered-node-test-secret-0123456789");
    private static final MembershipTiming FAST = new MembershipTiming(Duration.ofMillis(100), 3, 8);
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private final List<ClusterNode> nodes = new ArrayList<>();

    @AfterEach
    void stop() {
        nodes.reversed().forEach(ClusterNode::close);
    }

    private ClusterNode start(String id, long capacity, List<InetSocketAddress> seeds) {
        ClusterSettings settings = ClusterSettings.defaults(SECRET).withNodeId(id).withRole("zone-" + id, capacity)
                .withRpc("127.0.0.1", 0).withSeeds(seeds).withBootstrapExpect(3);
        NodeConfig config = new NodeConfig(dir.resolve(id), SyncPolicy.NONE, 8 << 20, Duration.ofMinutes(1));
        ClusterNode node = Cluster.node(config, MaintenanceConfig.DEFAULTS, settings, FAST);
        nodes.add(node);
        return node;
    }

    private static NodeId id(ClusterNode node) {
        return node.control().orElseThrow().selfId();
    }

    private static ReplicatedBlockStore blocks(ClusterNode node) {
        return node.replicas().orElseThrow().blocks();
    }

    /**
     * A storage node dies as a host does, silently: calls to it time out rather than fail. Once the
     * gateway's membership sees it DOWN, a chunk read through the gateway, which would have asked it
     * first (it is the chunk's first replica in the layout), asks a live replica first and does not
     * wait out the 5 s read timeout on it.
     */
    @Test
    void aChunkReadDoesNotWaitForAReplicaThatMembershipSeesDown() throws Exception {
        startThreeAndAGateway();
        ClusterNode n1 = nodes.get(0), n2 = nodes.get(1), n3 = nodes.get(2), gateway = nodes.get(3);

        BlockId id = BlockId.random();
        while (!blocks(gateway).replicasOf(id).getFirst().equals(id(n3))) {
            id = BlockId.random();
        }
        byte[] chunk = new byte[256 * 1024];
        new Random(7).nextBytes(chunk);
        BlockRef ref = blocks(gateway).write(id, new ByteArrayInputStream(chunk));
        Await.until(WAIT, () -> List.of(n1, n2, n3).stream().allMatch(node -> holds(node, ref.id())),
                () -> "all three copies");

        cutOffUntilSeenDown(n3, gateway);

        ReplicationStats before = blocks(gateway).stats();
        long start = System.nanoTime();
        try (InputStream in = blocks(gateway).read(ref, 0, ref.size())) {
            assertThat(in.readAllBytes()).isEqualTo(chunk);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(ReplicationConfig.defaults().readTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(took).as("well under the 5 s read timeout, even on a loaded machine")
                .isLessThan(Duration.ofSeconds(4));
        ReplicationStats after = blocks(gateway).stats();
        assertThat(after.readFallbacks() - before.readFallbacks()).as("no replica skipped").isZero();
    }

    /**
     * As a chunk read, a metadata read (get and range of the leaderless table) through the gateway
     * whose read quorum, closest first, would include n3 asks the other replicas once the gateway
     * sees n3 DOWN, and does not wait out the table's 5 s call timeout on it.
     */
    @Test
    void aMetadataReadDoesNotWaitForAReplicaThatMembershipSeesDown() throws Exception {
        startThreeAndAGateway();
        ClusterNode n3 = nodes.get(2), gateway = nodes.get(3);
        ReplicatedTable table = ((ClusteredNode) gateway).table();
        ClusterLayout layout = gateway.control().orElseThrow().layout();
        int quorum = table.config().readQuorum();
        byte[] partitionKey;
        int attempt = 0;
        do {
            partitionKey = ("bucket-" + attempt++).getBytes(UTF_8);
        } while (!ReplicaOrder.readOrder(layout, id(gateway), layout.replicas(table.local().partitionOf(partitionKey)),
                Map.of()).subList(0, quorum).contains(id(n3)));
        byte[] key = partitionKey;
        table.put(key, "k".getBytes(UTF_8), "v".getBytes(UTF_8)).join();

        cutOffUntilSeenDown(n3, gateway);

        long start = System.nanoTime();
        assertThat(table.get(key, "k".getBytes(UTF_8)).join()).isPresent();
        assertThat(table.range(key, new byte[0], 10).join().entries()).hasSize(1);
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(ClusteredNode.TABLE_TIMEOUT).isEqualTo(Duration.ofSeconds(5));
        assertThat(took).as("a get and a range, well under one 5 s call timeout, even on a loaded machine")
                .isLessThan(Duration.ofSeconds(3));
    }

    /** Starts n1, n2, n3 (one zone each) and a gateway, in that order, until all agree and see each other. */
    private void startThreeAndAGateway() throws InterruptedException {
        ClusterNode n1 = start("n1", 1, List.of());
        List<InetSocketAddress> seed = List.of(n1.control().orElseThrow().address());
        start("n2", 1, seed);
        start("n3", 1, seed);
        ClusterControl control = start("gateway", 0, seed).control().orElseThrow();
        Await.until(WAIT, () -> nodes.stream().allMatch(node -> node.control().orElseThrow().layout().version() >= 1)
                && control.statuses().values().stream().filter(s -> s.state() == PeerStatus.State.UP).count() == 4,
                () -> "layout 1 on every node, and the gateway sees all four UP");
    }

    /** Cuts {@code dead} off from every other node, silently (calls time out), until {@code observer} sees it DOWN. */
    private void cutOffUntilSeenDown(ClusterNode dead, ClusterNode observer) throws InterruptedException {
        NodeId deadId = id(dead);
        List<NodeId> others = nodes.stream().map(ClusteredNodeTest::id).filter(node -> !node.equals(deadId)).toList();
        for (ClusterNode node : nodes) {
            node.control().orElseThrow().faults().partition(List.of(deadId), others);
        }
        ClusterControl control = observer.control().orElseThrow();
        Await.until(WAIT, () -> control.statuses().get(deadId).state() == PeerStatus.State.DOWN,
                () -> id(observer).value() + " sees " + deadId.value() + " DOWN");
    }

    private static boolean holds(ClusterNode node, BlockId id) {
        try {
            BlockStore local = node.replicas().orElseThrow().localBlocks();
            return local != null && local.exists(id);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
