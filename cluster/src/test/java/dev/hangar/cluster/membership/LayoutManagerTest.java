package dev.hangar.cluster.membership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.LayoutPlanner;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import dev.hangar.cluster.rpc.ClusterSecret;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcSecurity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LayoutManagerTest {
    private static final NodeId A = new NodeId("a");
    private static final NodeId B = new NodeId("b");
    private static final NodeId C = new NodeId("c");

    @TempDir
    Path dir;

    // Never called here: these layouts change only by local applies.
    private final RpcClient client =
            new RpcClient(A, RpcSecurity.of(ClusterSecret.of("layout-test-secret-0123456789")));

    @AfterEach
    void close() {
        client.close();
    }

    private LayoutManager manager() {
        return manager(dir, A, 0);
    }

    private LayoutManager manager(Path dataDir, NodeId self, int bootstrapExpect) {
        return new LayoutManager(dataDir, self, 3, bootstrapExpect, client, ClusterIdentity.load(dataDir));
    }

    @Test
    void startsEmptyAndAppliesStagedRoles() {
        try (LayoutManager layouts = manager()) {
            assertThat(layouts.current().version()).isZero();
            layouts.stage(new NodeRole(A, "z1", 1));
            layouts.stage(new NodeRole(B, "z2", 1));
            layouts.stage(new NodeRole(C, "z3", 0));
            assertThat(layouts.staged().roles()).containsOnlyKeys(A, B, C);
            List<ClusterLayout> heard = new CopyOnWriteArrayList<>();
            layouts.addListener(heard::add);

            ClusterLayout first = layouts.apply(0);

            assertThat(first.version()).isEqualTo(1);
            assertThat(first.roles()).hasSize(3);
            assertThat(first.partitionCounts()).containsOnlyKeys(A, B);
            assertThat(layouts.current()).isEqualTo(first);
            assertThat(layouts.localDigest()).isEqualTo(LayoutDigest.of(first));
            assertThat(layouts.staged()).isEqualTo(StagedChanges.NONE);
            assertThat(heard).containsExactly(first);
        }
    }

    @Test
    void keepsTheLayoutAcrossRestarts() {
        ClusterLayout applied;
        try (LayoutManager layouts = manager()) {
            layouts.stage(new NodeRole(A, "z1", 1));
            layouts.stage(new NodeRole(B, "z2", 2));
            layouts.apply(0);
            layouts.stageRemoval(B);
            layouts.stage(new NodeRole(C, "z3", 1));
            applied = layouts.apply(1);
        }
        try (LayoutManager again = manager()) {
            assertThat(again.current()).isEqualTo(applied);
            assertThat(again.current().version()).isEqualTo(2);
            assertThat(again.current().role(B)).isEmpty();
        }
    }

    @Test
    void refusesAStaleVersion() {
        try (LayoutManager layouts = manager()) {
            layouts.stage(new NodeRole(A, "z1", 1));
            layouts.apply(0);
            layouts.stage(new NodeRole(B, "z1", 1));

            assertThatThrownBy(() -> layouts.apply(0))
                    .isInstanceOf(StaleLayoutException.class)
                    .satisfies(e -> assertThat(((StaleLayoutException) e).currentVersion()).isEqualTo(1));
            assertThat(layouts.current().version()).isEqualTo(1);
            assertThat(layouts.staged().roles()).containsOnlyKeys(B);
        }
    }

    @Test
    void refusesAnEmptyChangeAndALayoutWithoutStorage() {
        try (LayoutManager layouts = manager()) {
            assertThatThrownBy(() -> layouts.apply(0)).hasMessageContaining("no staged");
            layouts.stage(new NodeRole(A, "z1", 0));
            assertThatThrownBy(() -> layouts.apply(0)).hasMessageContaining("capacity");
            assertThat(layouts.current().version()).isZero();
        }
    }

    @Test
    void adoptsOnlyNewerLayouts() {
        try (LayoutManager layouts = manager(); LayoutManager other = manager(dir.resolve("b"), B, 0)) {
            other.stage(new NodeRole(B, "z1", 1));
            ClusterLayout first = other.apply(0);
            other.stage(new NodeRole(C, "z2", 1));
            ClusterLayout second = other.apply(1);

            assertThat(layouts.adopt(second, Set.of(A))).isTrue();
            assertThat(layouts.adopt(first, Set.of(A))).isFalse();
            assertThat(layouts.current()).isEqualTo(second);
        }
    }

    @Test
    void bootstrapsOnlyOnTheSmallestNodeOnceEnoughAreUp() {
        try (LayoutManager onA = manager(dir.resolve("a"), A, 2);
                LayoutManager onB = manager(dir.resolve("b"), B, 2)) {
            Map<NodeId, PeerStatus> one = Map.of(A, up(A, 1));
            onA.round(one);
            assertThat(onA.current().version()).isZero();

            Map<NodeId, PeerStatus> two = Map.of(A, up(A, 1), B, up(B, 1), C, up(C, 0));
            onB.round(two);
            assertThat(onB.current().version()).isZero();
            onA.round(two);
            assertThat(onA.current().version()).isEqualTo(1);
            assertThat(onA.current().roles()).extracting(NodeRole::id).containsExactly(A, B, C);
            assertThat(onA.current().partitionCounts().keySet()).isEqualTo(Set.of(A, B));
        }
    }

    /**
     * A gateway never forms the first layout, even with the smallest id, and does not keep the smallest
     * storage node from forming it: else a storage node that has not seen the gateway yet and the gateway
     * would both bootstrap, as two clusters.
     */
    @Test
    void aGatewayNeitherBootstrapsNorKeepsTheSmallestStorageNodeFromIt() {
        NodeId gateway = new NodeId("0-gateway"); // smaller than every storage node id
        try (LayoutManager onGateway = manager(dir.resolve("gw"), gateway, 2);
                LayoutManager onA = manager(dir.resolve("a"), A, 2)) {
            Map<NodeId, PeerStatus> all = Map.of(gateway, up(gateway, 0), A, up(A, 1), B, up(B, 1));
            onGateway.round(all);
            assertThat(onGateway.current().version()).isZero();
            onA.round(all);
            assertThat(onA.current().version()).isEqualTo(1);
            assertThat(onA.current().roles()).extracting(NodeRole::id).contains(gateway, A, B);
        }
    }

    /**
     * Layouts from other nodes: a replica set shorter than the factor allows, another replication
     * factor or partition count, or a node nobody knows are rejected and change nothing; the same
     * layout is adopted once the node it names has joined.
     */
    @Test
    void rejectsLayoutsThatBreakTheRules() {
        NodeId ghost = new NodeId("ghost");
        try (LayoutManager layouts = manager()) {
            layouts.stage(new NodeRole(A, "z1", 1));
            layouts.stage(new NodeRole(B, "z2", 1));
            layouts.stage(new NodeRole(C, "z3", 1));
            ClusterLayout first = layouts.apply(0);
            Set<NodeId> members = Set.of(A, B, C);

            ClusterLayout thin = new ClusterLayout(2, first.partitions(), 3, first.roles(),
                    Collections.nCopies(first.partitions(), List.of(B)));
            assertThatThrownBy(() -> layouts.adopt(thin, members))
                    .isInstanceOf(RejectedLayoutException.class).hasMessageContaining("partition 0 has 1 replicas");
            ClusterLayout factorTwo = LayoutPlanner.plan(first, first.roles(), 2);
            assertThatThrownBy(() -> layouts.adopt(factorTwo, members))
                    .isInstanceOf(RejectedLayoutException.class).hasMessageContaining("replication factor 2");
            ClusterLayout fewerPartitions = LayoutPlanner.plan(first, first.roles(), 3, 16);
            assertThatThrownBy(() -> layouts.adopt(fewerPartitions, members))
                    .isInstanceOf(RejectedLayoutException.class).hasMessageContaining("16 partitions");
            List<NodeRole> withGhost = new ArrayList<>(first.roles());
            withGhost.add(new NodeRole(ghost, "z1", 1));
            ClusterLayout haunted = LayoutPlanner.plan(first, withGhost, 3);
            assertThatThrownBy(() -> layouts.adopt(haunted, members))
                    .isInstanceOf(RejectedLayoutException.class).hasMessageContaining("node ghost");
            assertThat(layouts.current()).isEqualTo(first);

            // A member's layout that keeps one node: the others would hand it every partition and release theirs.
            ClusterLayout lonely = LayoutPlanner.plan(first, List.of(first.role(A).orElseThrow()), 3);
            assertThatThrownBy(() -> layouts.adopt(lonely, members))
                    .isInstanceOf(RejectedLayoutException.class).hasMessageContaining("1 storage nodes where layout version 1 has 3");
            assertThat(layouts.current()).isEqualTo(first);

            assertThat(layouts.adopt(haunted, Set.of(A, B, C, ghost))).isTrue();
            assertThat(layouts.current()).isEqualTo(haunted);
        }
    }

    @Test
    void removingStorageNodesBelowTheFactorIsRefusedReplacingThemIsNot() {
        NodeId d = new NodeId("d");
        try (LayoutManager layouts = manager()) {
            layouts.stage(new NodeRole(A, "z1", 1));
            layouts.stage(new NodeRole(B, "z2", 1));
            layouts.stage(new NodeRole(C, "z3", 1));
            ClusterLayout first = layouts.apply(0);

            layouts.stageRemoval(C);
            assertThatThrownBy(() -> layouts.apply(1))
                    .isInstanceOf(RejectedLayoutException.class).hasMessageContaining("add a node in the same change");
            assertThat(layouts.current()).isEqualTo(first);

            layouts.stage(new NodeRole(d, "z3", 1));
            ClusterLayout replaced = layouts.apply(1);
            assertThat(replaced.roles()).extracting(NodeRole::id).containsExactlyInAnyOrder(A, B, d);
        }
    }

    @Test
    void theNodeThatFormsTheFirstLayoutMakesTheClusterIdOthersTakeItOnce() {
        try (LayoutManager layouts = manager(); LayoutManager other = manager(dir.resolve("b"), B, 0)) {
            assertThat(layouts.clusterId()).isEmpty();
            layouts.stage(new NodeRole(A, "z1", 1));
            layouts.apply(0);
            String id = layouts.clusterId();
            assertThat(id).isNotEmpty();
            assertThat(dir.resolve(ClusterIdentity.FILE)).content().isEqualToIgnoringNewLines(id);

            other.heardClusterId(A, "");
            assertThat(other.clusterId()).isEmpty();
            other.heardClusterId(A, id);
            assertThat(other.clusterId()).isEqualTo(id);
            assertThatThrownBy(() -> other.heardClusterId(C, "another-cluster"))
                    .isInstanceOf(ClusterMismatchException.class).hasMessageContaining("another-cluster");
            assertThat(other.clusterId()).isEqualTo(id);
        }
        // Kept across restarts.
        try (LayoutManager again = manager(dir.resolve("b"), B, 0)) {
            assertThat(again.clusterId()).isNotEmpty();
        }
    }

    private static PeerStatus up(NodeId id, long capacity) {
        return new PeerStatus(id, "z", capacity, java.net.InetSocketAddress.createUnresolved("localhost", 1),
                PeerStatus.State.UP, java.time.Instant.now(), 0);
    }
}
