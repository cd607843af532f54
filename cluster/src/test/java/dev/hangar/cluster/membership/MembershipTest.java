package dev.hangar.cluster.membership;

import static dev.hangar.cluster.membership.PeerStatus.State.DOWN;
import static dev.hangar.cluster.membership.PeerStatus.State.SUSPECT;
import static dev.hangar.cluster.membership.PeerStatus.State.UP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.LayoutPlanner;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import dev.hangar.cluster.rpc.ClusterSecret;
import dev.hangar.cluster.rpc.NetworkFaults;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MembershipTest {
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final ClusterSecret SECRET = ClusterSecret.of("membership-test-secret-0123456789");

    @TempDir
    Path dir;

    private final NetworkFaults faults = new NetworkFaults();
    private final List<TestNode> nodes = new ArrayList<>();

    @AfterEach
    void stopAll() {
        nodes.forEach(TestNode::close);
    }

    private static ClusterSettings settings(String id, String zone, List<InetSocketAddress> seeds) {
        return ClusterSettings.defaults(SECRET).withNodeId(id).withRole(zone, 1).withRpc("127.0.0.1", 0).withSeeds(seeds);
    }

    private TestNode start(ClusterSettings settings) throws InterruptedException {
        TestNode node = TestNode.start(dir.resolve(settings.nodeId()), settings, faults);
        nodes.add(node);
        return node;
    }

    private void stop(TestNode node) {
        node.close();
        nodes.remove(node);
    }

    /** a, then b and c seeded with a only: b and c must learn each other through a. */
    private List<TestNode> startThree(int bootstrapExpect) throws InterruptedException {
        TestNode a = start(settings("a", "z1", List.of()).withBootstrapExpect(bootstrapExpect));
        TestNode b = start(settings("b", "z2", List.of(a.address)).withBootstrapExpect(bootstrapExpect));
        TestNode c = start(settings("c", "z3", List.of(a.address)).withBootstrapExpect(bootstrapExpect));
        return List.of(a, b, c);
    }

    private static void awaitState(TestNode observer, TestNode peer, PeerStatus.State state) {
        Await.until(WAIT, () -> observer.stateOf(peer.id) == state,
                () -> observer.id + " sees " + peer.id + " as " + observer.stateOf(peer.id) + ", not " + state);
    }

    private void awaitAllUp(List<TestNode> group) {
        Await.until(WAIT, () -> group.stream().allMatch(n -> group.stream().allMatch(p -> n.stateOf(p.id) == UP)),
                () -> "not all UP: " + group.stream().map(n -> n.id + "=" + n.statuses().values()).toList());
    }

    @Test
    void nodesSeededWithOneNodeLearnEveryOtherNode() throws Exception {
        List<TestNode> three = startThree(0);
        awaitAllUp(three);
        for (TestNode node : three) {
            Map<NodeId, PeerStatus> statuses = node.statuses();
            assertThat(statuses.keySet()).containsExactlyInAnyOrder(new NodeId("a"), new NodeId("b"), new NodeId("c"));
            PeerStatus b = statuses.get(new NodeId("b"));
            assertThat(b.zone()).isEqualTo("z2");
            assertThat(b.capacity()).isEqualTo(1);
            assertThat(b.address().getPort()).isEqualTo(three.get(1).address.getPort());
        }
    }

    @Test
    void aStoppedNodeTurnsSuspectThenDownAndUpWhenItComesBack() throws Exception {
        List<TestNode> three = startThree(0);
        TestNode a = three.get(0);
        TestNode c = three.get(2);
        awaitAllUp(three);
        List<PeerStatus.State> seenByA = new CopyOnWriteArrayList<>();
        List<NodeId> cameBack = new CopyOnWriteArrayList<>();
        a.membership.addListener((before, after) -> {
            if (after.id().equals(c.id) && (before == null || before.state() != after.state())) {
                seenByA.add(after.state());
            }
            if (MembershipListener.cameBack(before, after)) {
                cameBack.add(after.id());
            }
        });

        stop(c);
        awaitState(a, c, DOWN);
        awaitState(three.get(1), c, DOWN);
        Await.until(WAIT, () -> seenByA.size() == 2, () -> "a's listener heard c's states " + seenByA);
        assertThat(seenByA).containsExactly(SUSPECT, DOWN);

        // Same data directory, hence same id, and the same port.
        TestNode again = start(settings("c", "z3", List.of(a.address)).withRpc("127.0.0.1", c.address.getPort()));
        assertThat(again.id).isEqualTo(c.id);
        awaitState(a, again, UP);
        // Listeners hear of a change just after the status map shows it: wait for them too.
        Await.until(WAIT, () -> cameBack.size() == 1 && seenByA.size() == 3,
                () -> "listeners heard " + cameBack + " come back, states " + seenByA);
        assertThat(cameBack).containsExactly(c.id);
        assertThat(seenByA).containsExactly(SUSPECT, DOWN, UP);

        // And on a new port: the node's own ping tells the others where it is now.
        stop(again);
        awaitState(a, again, DOWN);
        TestNode moved = start(settings("c", "z3", List.of(a.address)));
        assertThat(moved.address.getPort()).isNotEqualTo(c.address.getPort());
        awaitAllUp(List.of(a, three.get(1), moved));
        assertThat(a.statuses().get(c.id).address().getPort()).isEqualTo(moved.address.getPort());
        Await.until(WAIT, () -> cameBack.size() == 2, () -> "listeners heard " + cameBack + " come back");
        assertThat(cameBack).containsExactly(c.id, c.id);
    }

    @Test
    void bootstrapExpectFormsTheFirstLayoutOnEveryNode() throws Exception {
        List<TestNode> three = startThree(3);
        Await.until(WAIT, () -> three.stream().allMatch(n -> n.layouts.current().version() == 1),
                () -> "versions " + three.stream().map(n -> n.layouts.current().version()).toList());

        List<NodeRole> roles = List.of(
                new NodeRole(new NodeId("a"), "z1", 1), new NodeRole(new NodeId("b"), "z2", 1),
                new NodeRole(new NodeId("c"), "z3", 1));
        ClusterLayout expected = LayoutPlanner.plan(ClusterLayout.empty(ClusterLayout.DEFAULT_PARTITIONS, 3), roles, 3);
        for (TestNode node : three) {
            assertThat(node.layouts.current()).isEqualTo(expected);
            assertThat(node.layouts.current().partitionCounts()).containsOnlyKeys(
                    new NodeId("a"), new NodeId("b"), new NodeId("c"));
        }
        // Every node announces the version it runs.
        Await.until(WAIT, () -> three.get(0).statuses().values().stream().allMatch(s -> s.layoutVersion() == 1),
                () -> "announced " + three.get(0).statuses().values());

        // A restarted node has its layout before it hears from anyone.
        stop(three.get(2));
        TestNode again = start(settings("c", "z3", List.of()).withBootstrapExpect(3));
        assertThat(again.layouts.current()).isEqualTo(expected);
    }

    @Test
    void anAppliedLayoutReachesEveryNode() throws Exception {
        List<TestNode> three = startThree(3);
        TestNode d = start(settings("d", "z1", List.of(three.get(2).address)).withBootstrapExpect(3));
        List<TestNode> four = List.of(three.get(0), three.get(1), three.get(2), d);
        awaitAllUp(four);
        Await.until(WAIT, () -> four.stream().allMatch(n -> n.layouts.current().version() == 1),
                () -> "versions " + four.stream().map(n -> n.layouts.current().version()).toList());
        assertThat(d.layouts.current().role(d.id)).isEmpty();

        TestNode b = three.get(1);
        b.layouts.stage(new NodeRole(d.id, "z1", 1));
        ClusterLayout applied = b.layouts.apply(1);

        assertThat(applied.version()).isEqualTo(2);
        assertThat(applied.partitionCounts()).containsKey(d.id);
        Await.until(WAIT, () -> four.stream().allMatch(n -> n.layouts.current().equals(applied)),
                () -> "versions " + four.stream().map(n -> n.layouts.current().version()).toList());
        assertThat(b.layouts.staged().isEmpty()).isTrue();
    }

    @Test
    void aPartitionedNodeIsDownForTheOthersAndSeesThemDown() throws Exception {
        List<TestNode> three = startThree(0);
        TestNode a = three.get(0);
        TestNode b = three.get(1);
        TestNode c = three.get(2);
        awaitAllUp(three);

        faults.partition(Set.of(c.id), Set.of(a.id, b.id));
        awaitState(a, c, DOWN);
        awaitState(b, c, DOWN);
        awaitState(c, a, DOWN);
        awaitState(c, b, DOWN);
        assertThat(a.stateOf(b.id)).isEqualTo(UP);

        faults.heal();
        awaitAllUp(three);
    }

    @Test
    void layoutsAppliedOnBothSidesOfAPartitionConvergeOnOne() throws Exception {
        TestNode a = start(settings("a", "z1", List.of()));
        TestNode b = start(settings("b", "z2", List.of(a.address)));
        awaitAllUp(List.of(a, b));
        a.layouts.stage(new NodeRole(a.id, "z1", 1));
        a.layouts.stage(new NodeRole(b.id, "z2", 1));
        ClusterLayout first = a.layouts.apply(0);
        Await.until(WAIT, () -> b.layouts.current().equals(first), () -> "b has " + b.layouts.localDigest());
        assertThat(b.layouts.clusterId()).isEqualTo(a.layouts.clusterId()).isNotEmpty();

        faults.partition(Set.of(a.id), Set.of(b.id));
        a.layouts.stage(new NodeRole(a.id, "z1", 2));
        b.layouts.stage(new NodeRole(b.id, "z2", 2));
        ClusterLayout fromA = a.layouts.apply(1);
        ClusterLayout fromB = b.layouts.apply(1);
        assertThat(fromA).isNotEqualTo(fromB);

        faults.heal();
        ClusterLayout winner = LayoutDigest.of(fromA).isNewerThan(LayoutDigest.of(fromB)) ? fromA : fromB;
        Await.until(WAIT, () -> a.layouts.current().equals(winner) && b.layouts.current().equals(winner),
                () -> "a has " + a.layouts.localDigest() + ", b has " + b.layouts.localDigest());
    }

    /**
     * Two nodes that each form a first layout on their side of a partition make two clusters, each
     * with its own cluster id: once healed, they refuse each other rather than merge.
     */
    @Test
    void firstLayoutsAppliedOnBothSidesOfAPartitionMakeTwoClustersThatRefuseEachOther() throws Exception {
        TestNode a = start(settings("a", "z1", List.of()));
        TestNode b = start(settings("b", "z2", List.of(a.address)));
        awaitAllUp(List.of(a, b));
        faults.partition(Set.of(a.id), Set.of(b.id));
        a.layouts.stage(new NodeRole(a.id, "z1", 1));
        b.layouts.stage(new NodeRole(b.id, "z2", 1));
        ClusterLayout fromA = a.layouts.apply(0);
        ClusterLayout fromB = b.layouts.apply(0);
        assertThat(a.layouts.clusterId()).isNotEmpty().isNotEqualTo(b.layouts.clusterId());

        faults.heal();
        // A node's ping answers carry its cluster id; answers of the other cluster are ignored.
        awaitState(a, b, DOWN);
        awaitState(b, a, DOWN);
        assertThat(a.layouts.current()).isEqualTo(fromA);
        assertThat(b.layouts.current()).isEqualTo(fromB);
    }
}
