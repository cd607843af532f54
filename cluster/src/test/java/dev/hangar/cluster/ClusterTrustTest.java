package dev.hangar.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.LayoutCodec;
import dev.hangar.cluster.layout.LayoutPlanner;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import dev.hangar.cluster.membership.ClusterSettings;
import dev.hangar.cluster.membership.Consistency;
import dev.hangar.cluster.membership.GossipMessage;
import dev.hangar.cluster.membership.LayoutDigest;
import dev.hangar.cluster.membership.LayoutManager;
import dev.hangar.cluster.membership.Membership;
import dev.hangar.cluster.membership.MembershipTiming;
import dev.hangar.cluster.membership.PeerInfo;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.rpc.ClusterSecret;
import dev.hangar.cluster.rpc.LogCapture;
import dev.hangar.cluster.rpc.NetworkFaults;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcConfig;
import dev.hangar.cluster.rpc.RpcPeer;
import dev.hangar.cluster.rpc.RpcSecurity;
import dev.hangar.cluster.rpc.RpcServer;
import dev.hangar.cluster.rpc.WireClient;
import dev.hangar.cluster.table.Entry;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three real cluster nodes on loopback, holding a chunk and a metadata entry, attacked on one node's
 * RPC port the way issue 12's trial did: read a chunk, overwrite and delete it, announce a layout
 * that puts every partition on a node the attacker plays, read and write metadata. Three attackers
 * try — one that skips the handshake, one with the wrong secret, one with the right secret but
 * another cluster's id — and each is closed without an answer; afterwards every node still has the
 * layout, the chunk and the entry it had, and no copy waits to be released. A member that knows the
 * secret but announces a malformed layout, or one naming a node nobody knows, is refused too.
 */
@Timeout(180)
class ClusterTrustTest {
    private static final String SECRET_TEXT = "trust-test-cluster-secret-0123456789";
    private static final ClusterSecret SECRET = ClusterSecret.of(SECRET_TEXT);
    private static final MembershipTiming FAST = new MembershipTiming(Duration.ofMillis(100), 3, 8);
    private static final byte[] BUCKET = "bucket".getBytes(StandardCharsets.UTF_8);
    private static final byte[] KEY = "key".getBytes(StandardCharsets.UTF_8);
    private static final byte[] VALUE = "value".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private final List<ClusterNode> nodes = new ArrayList<>();
    private final byte[] chunk = new byte[64 * 1024];
    private BlockId chunkId;
    private ClusterNode n1;

    @BeforeEach
    void startClusterWithData() throws Exception {
        n1 = start("n1", List.of());
        InetSocketAddress seed = n1.control().orElseThrow().address();
        start("n2", List.of(seed));
        start("n3", List.of(seed));
        await(() -> nodes.stream().allMatch(node -> node.control().orElseThrow().layout().version() == 1
                && node.control().orElseThrow().statuses().values().stream()
                        .filter(s -> s.state() == PeerStatus.State.UP).count() == 3), "three nodes UP on layout 1");

        new Random(12).nextBytes(chunk);
        chunkId = BlockId.random();
        n1.blocks().write(chunkId, new ByteArrayInputStream(chunk));
        ((ClusteredNode) n1).table().put(BUCKET, KEY, VALUE).get(20, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        nodes.reversed().forEach(ClusterNode::close);
    }

    private ClusterNode start(String id, List<InetSocketAddress> seeds) {
        ClusterSettings settings = new ClusterSettings(id, "zone-" + id, 1, "127.0.0.1", 0, null, seeds, 3,
                Consistency.CONSISTENT, 3, SECRET, null, ClusterSettings.DEFAULT_MAX_CLOCK_SKEW);
        NodeConfig config = new NodeConfig(dir.resolve(id), SyncPolicy.NONE, 8 << 20, Duration.ofMinutes(1));
        ClusterNode node = Cluster.node(config, MaintenanceConfig.DEFAULTS, settings, FAST);
        nodes.add(node);
        return node;
    }

    @Test
    void attackersWithoutProofAreClosedUnansweredAndChangeNothing() throws Exception {
        InetSocketAddress target = n1.control().orElseThrow().address();
        try (LogCapture log = LogCapture.of(RpcServer.class)) {
            try (WireClient noHandshake = new WireClient(target)) {
                assertThat(attack(noHandshake)).as("frames answered to a client that skipped the handshake").isEmpty();
            }
            try (WireClient wrongSecret = new WireClient(target)) {
                ClusterSecret guess = ClusterSecret.of("a-guessed-cluster-secret-000000");
                assertThat(wrongSecret.authenticate(guess, "evil", "")).isEmpty();
                assertThat(attack(wrongSecret)).as("frames answered to a client with the wrong secret").isEmpty();
            }
            try (WireClient otherCluster = new WireClient(target)) {
                assertThat(otherCluster.authenticate(SECRET, "evil", "another-cluster")).isEmpty();
                assertThat(attack(otherCluster)).as("frames answered to a client of another cluster").isEmpty();
            }
            await(() -> log.warnings().stream().filter(w -> w.startsWith("refused RPC connection from /127.0.0.1"))
                    .count() >= 3, "a warning for each attacker");
            assertThat(log.warnings()).noneMatch(w -> w.contains(SECRET_TEXT));
        }
        assertNothingChanged();
    }

    /**
     * A node that knows the secret (a member gone bad, or a bug) announces two layouts: one that puts
     * every partition on a node nobody knows, and one that leaves every partition a single replica.
     * Both are fetched and rejected; the member is never asked whether it holds a chunk.
     */
    @Test
    void aMemberAnnouncingForgedLayoutsIsRejected() throws Exception {
        ClusterLayout current = n1.control().orElseThrow().layout();
        ClusterLayout onGhost = LayoutPlanner.plan(current, List.of(new NodeRole(new NodeId("ghost"), "zone-g", 1)), 3);
        ClusterLayout thin = new ClusterLayout(1000, current.partitions(), 3, current.roles(),
                Collections.nCopies(current.partitions(), List.of(new NodeId("n1"))));
        NodeId rogue = new NodeId("rogue");
        RpcSecurity security = RpcSecurity.of(SECRET);
        AtomicInteger existenceChecks = new AtomicInteger();
        for (ClusterLayout forged : List.of(onGhost, thin)) {
            try (RpcServer server = new RpcServer(rogue, RpcConfig.defaults(), security, new NetworkFaults(), null);
                    RpcClient client = new RpcClient(rogue, RpcConfig.defaults(), security, new NetworkFaults());
                    LogCapture log = LogCapture.of(LayoutManager.class)) {
                server.register(LayoutManager.FETCH,
                        (from, payload) -> CompletableFuture.completedFuture(LayoutCodec.encode(forged)));
                server.register("blocks.exists", (from, payload) -> {
                    existenceChecks.incrementAndGet();
                    return CompletableFuture.completedFuture(new byte[] {0}); // "found"
                });
                InetSocketAddress address = server.start("127.0.0.1", 0);
                GossipMessage ping = new GossipMessage(new PeerInfo(rogue, "zone-r", 1, address), "",
                        LayoutDigest.of(forged), List.of());
                client.call(new RpcPeer(new NodeId("n1"), n1.control().orElseThrow().address()), Membership.PING,
                        ping.encode(), Duration.ofSeconds(5)).get(20, TimeUnit.SECONDS);
                await(() -> log.warnings().stream()
                        .anyMatch(w -> w.contains("rejected layout version " + forged.version() + " from rogue")),
                        "n1 rejects layout " + forged.version());
            }
        }
        assertThat(n1.control().orElseThrow().layout()).isEqualTo(current);
        assertThat(existenceChecks).hasValue(0);
        assertNothingChanged();
    }

    /** Every request an attacker would send, then what the node sent back before it closed the connection. */
    private List<WireClient.Frame> attack(WireClient attacker) throws Exception {
        byte[] id = HexFormat.of().parseHex(chunkId.value());
        ClusterLayout forged = LayoutPlanner.plan(n1.control().orElseThrow().layout(),
                List.of(new NodeRole(new NodeId("evil"), "zone-e", 1)), 3);
        GossipMessage announcement = new GossipMessage(
                new PeerInfo(new NodeId("evil"), "zone-e", 1, InetSocketAddress.createUnresolved("127.0.0.1", 1)),
                "", LayoutDigest.of(forged), List.of());
        // Payloads as the services read them; nothing is decoded before the handshake anyway.
        attacker.request(1, "blocks.get", ByteBuffer.allocate(33).put(id).putLong(0).putLong(chunk.length).array());
        attacker.request(2, "blocks.exists", id);
        attacker.request(3, Membership.PING, announcement.encode());
        attacker.request(4, LayoutManager.FETCH, new byte[0]);
        attacker.request(5, "blocks.put", ByteBuffer.allocate(16 + 4 + 8 + 3).put(id).putInt(0).putLong(1_000)
                .put(new byte[3]).array());
        attacker.request(6, "blocks.delete", id);
        attacker.request(7, "table.meta.range", new byte[16]);
        attacker.request(8, "table.meta.merge", new byte[16]);
        return attacker.readUntilClosed();
    }

    private void assertNothingChanged() throws Exception {
        for (ClusterNode node : nodes) {
            ClusterControl control = node.control().orElseThrow();
            assertThat(control.layout().version()).isEqualTo(1);
            assertThat(control.layout().roles()).extracting(NodeRole::id)
                    .containsExactly(new NodeId("n1"), new NodeId("n2"), new NodeId("n3"));
            assertThat(control.statuses()).doesNotContainKeys(new NodeId("evil"), new NodeId("ghost"));
            ReplicationView replication = node.replicas().orElseThrow();
            BlockStore local = replication.localBlocks();
            assertThat(local.exists(chunkId)).as("the chunk on %s", control.selfId()).isTrue();
            try (InputStream in = local.read(chunkId, 0, chunk.length)) {
                assertThat(in.readAllBytes()).isEqualTo(chunk);
            }
            assertThat(replication.blocks().resyncQueue().pendingReleases()).isEmpty();
            Optional<Entry> entry = ((ClusteredNode) node).table().get(BUCKET, KEY).get(20, TimeUnit.SECONDS);
            assertThat(entry).hasValueSatisfying(e -> assertThat(e.value()).isEqualTo(VALUE));
        }
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 60 s: " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
