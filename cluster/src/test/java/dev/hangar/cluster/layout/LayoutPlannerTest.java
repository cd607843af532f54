package dev.hangar.cluster.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LayoutPlannerTest {
    private static final int P = ClusterLayout.DEFAULT_PARTITIONS;

    private static NodeRole node(String id, String zone, long capacity) {
        return new NodeRole(new NodeId(id), zone, capacity);
    }

    private static void assertZonesAndReplicas(ClusterLayout layout, int replicas, int distinctZones) {
        for (int p = 0; p < layout.partitions(); p++) {
            List<NodeId> nodes = layout.replicas(p);
            assertThat(nodes).as("partition %d", p).hasSize(replicas).doesNotHaveDuplicates();
            Set<String> zones = new HashSet<>();
            for (NodeId n : nodes) {
                zones.add(layout.role(n).orElseThrow().zone());
            }
            assertThat(zones).as("zones of partition %d", p).hasSizeGreaterThanOrEqualTo(distinctZones);
        }
    }

    @Test
    void threeNodesInThreeZonesHoldEveryPartition() {
        ClusterLayout layout = LayoutPlanner.plan(null,
                List.of(node("a", "z1", 100), node("b", "z2", 100), node("c", "z3", 100)), 3);
        assertThat(layout.version()).isEqualTo(1);
        assertThat(layout.partitions()).isEqualTo(P);
        assertZonesAndReplicas(layout, 3, 3);
        assertThat(layout.partitionCounts()).containsOnly(
                Map.entry(new NodeId("a"), P), Map.entry(new NodeId("b"), P), Map.entry(new NodeId("c"), P));
    }

    @Test
    void fiveNodesInThreeZonesSpreadEveryPartitionOverThreeZones() {
        // z1 and z2 have two nodes each, z3 one: each zone must hold one replica of every partition,
        // so c1 holds all 256 and the two-node zones split theirs.
        ClusterLayout layout = LayoutPlanner.plan(null, List.of(
                node("a1", "z1", 100), node("a2", "z1", 100),
                node("b1", "z2", 100), node("b2", "z2", 100),
                node("c1", "z3", 100)), 3);
        assertZonesAndReplicas(layout, 3, 3);
        Map<NodeId, Integer> counts = layout.partitionCounts();
        assertThat(counts.get(new NodeId("c1"))).isEqualTo(P);
        for (String id : List.of("a1", "a2", "b1", "b2")) {
            assertThat(counts.get(new NodeId(id))).isBetween(P / 2 - 2, P / 2 + 2);
        }
    }

    @Test
    void sixNodesInThreeEqualZonesAreBalanced() {
        List<NodeRole> roles = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            roles.add(node("n" + i, "z" + (i % 3), 100));
        }
        ClusterLayout layout = LayoutPlanner.plan(null, roles, 3);
        assertZonesAndReplicas(layout, 3, 3);
        layout.partitionCounts().values().forEach(c -> assertThat(c).isBetween(126, 130));
    }

    @Test
    void capacityWeightsPartitionCounts() {
        // One zone, so only capacity matters: 2:1:1 of 768 slots is 384:192:192.
        ClusterLayout layout = LayoutPlanner.plan(null, List.of(
                node("big", "z", 200), node("s1", "z", 100), node("s2", "z", 100), node("s3", "z", 100)), 2);
        assertZonesAndReplicas(layout, 2, 1);
        Map<NodeId, Integer> counts = layout.partitionCounts();
        // 512 slots, weights 2:1:1:1 -> 204.8 : 102.4 each.
        assertThat(counts.get(new NodeId("big"))).isBetween(203, 207);
        for (String id : List.of("s1", "s2", "s3")) {
            assertThat(counts.get(new NodeId(id))).isBetween(100, 105);
        }
    }

    @Test
    void capacityWeightingWithinZones() {
        ClusterLayout layout = LayoutPlanner.plan(null, List.of(
                node("a-big", "z1", 200), node("a-small", "z1", 100),
                node("b", "z2", 100), node("c", "z3", 100)), 3);
        assertZonesAndReplicas(layout, 3, 3);
        Map<NodeId, Integer> counts = layout.partitionCounts();
        // Zone z1 holds one replica of each partition, split 2:1 between its nodes.
        assertThat(counts.get(new NodeId("a-big"))).isBetween(169, 173);
        assertThat(counts.get(new NodeId("a-small"))).isBetween(83, 87);
    }

    @Test
    void addingANodeMovesOnlyItsShare() {
        List<NodeRole> roles = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            roles.add(node("n" + i, "z" + (i % 3), 100));
        }
        ClusterLayout before = LayoutPlanner.plan(null, roles, 3);
        roles.add(node("n6", "z0", 100));
        ClusterLayout after = LayoutPlanner.plan(before, roles, 3);
        assertThat(after.version()).isEqualTo(2);
        assertZonesAndReplicas(after, 3, 3);
        int moved = after.movesFrom(before);
        // n6 joins z0, whose three nodes now share 256 slots: it takes about 85, and nothing else moves.
        assertThat(after.partitionCounts().get(new NodeId("n6"))).isBetween(84, 87);
        assertThat(moved).isLessThanOrEqualTo(87 + 4);
    }

    @Test
    void addingANodeInANewZoneMovesOnlyItsShare() {
        List<NodeRole> roles = new ArrayList<>(List.of(
                node("a1", "z1", 100), node("a2", "z1", 100),
                node("b1", "z2", 100), node("b2", "z2", 100),
                node("c1", "z3", 100)));
        ClusterLayout before = LayoutPlanner.plan(null, roles, 3);
        roles.add(node("d1", "z4", 100));
        ClusterLayout after = LayoutPlanner.plan(before, roles, 3);
        assertZonesAndReplicas(after, 3, 3);
        int total = P * 3;
        int fairShare = total / 6;
        assertThat(after.movesFrom(before)).isLessThanOrEqualTo(fairShare + 8);
        // Every zone can hold one replica per partition, so d1's zone share comes out of the others.
        Map<NodeId, Integer> counts = after.partitionCounts();
        assertThat(counts.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(total);
        assertThat(counts.get(new NodeId("d1"))).isBetween(fairShare - 2, fairShare + 2);
    }

    @Test
    void removingANodeMovesOnlyItsPartitions() {
        List<NodeRole> roles = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            roles.add(node("n" + i, "z" + (i % 3), 100));
        }
        ClusterLayout before = LayoutPlanner.plan(null, roles, 3);
        int held = before.partitionCounts().get(new NodeId("n5"));
        roles.removeIf(r -> r.id().value().equals("n5"));
        ClusterLayout after = LayoutPlanner.plan(before, roles, 3);
        assertZonesAndReplicas(after, 3, 3);
        assertThat(after.movesFrom(before)).isEqualTo(held);
        assertThat(after.partitionCounts()).doesNotContainKey(new NodeId("n5"));
    }

    @Test
    void unchangedRolesMoveNothing() {
        List<NodeRole> roles = List.of(
                node("a1", "z1", 100), node("a2", "z1", 300),
                node("b1", "z2", 100), node("c1", "z3", 50), node("c2", "z3", 70));
        ClusterLayout first = LayoutPlanner.plan(null, roles, 3);
        ClusterLayout second = LayoutPlanner.plan(first, roles, 3);
        assertThat(second.movesFrom(first)).isZero();
        assertThat(second.assignment()).isEqualTo(first.assignment());
    }

    @Test
    void gatewaysHoldNothing() {
        ClusterLayout layout = LayoutPlanner.plan(null, List.of(
                node("a", "z1", 100), node("b", "z2", 100), node("c", "z3", 100), node("gw", "z1", 0)), 3);
        assertThat(layout.roles()).hasSize(4);
        assertThat(layout.partitionCounts()).doesNotContainKey(new NodeId("gw"));
        assertZonesAndReplicas(layout, 3, 3);
    }

    @Test
    void planningIsDeterministic() {
        List<NodeRole> roles = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            roles.add(node("node-" + i, "zone-" + (i % 3), 100 + 37L * i));
        }
        ClusterLayout a = LayoutPlanner.plan(null, roles, 3);
        List<NodeRole> shuffled = new ArrayList<>(roles);
        java.util.Collections.reverse(shuffled);
        ClusterLayout b = LayoutPlanner.plan(null, shuffled, 3);
        assertThat(b).isEqualTo(a);
        roles.add(node("node-7", "zone-1", 250));
        assertThat(LayoutPlanner.plan(a, roles, 3)).isEqualTo(LayoutPlanner.plan(b, roles, 3));
    }

    @Test
    void fewerNodesThanTheReplicationFactor() {
        ClusterLayout two = LayoutPlanner.plan(null, List.of(node("a", "z1", 100), node("b", "z2", 100)), 3);
        assertZonesAndReplicas(two, 2, 2);
        ClusterLayout one = LayoutPlanner.plan(null, List.of(node("a", "z1", 100)), 3);
        assertZonesAndReplicas(one, 1, 1);
        ClusterLayout none = LayoutPlanner.plan(null, List.of(node("gw", "z1", 0)), 3);
        assertZonesAndReplicas(none, 0, 0);
    }

    @Test
    void fewerZonesThanTheReplicationFactorStillUseAllZones() {
        ClusterLayout layout = LayoutPlanner.plan(null, List.of(
                node("a1", "z1", 100), node("a2", "z1", 100), node("a3", "z1", 100),
                node("b1", "z2", 100)), 3);
        assertZonesAndReplicas(layout, 3, 2);
        assertThat(layout.partitionCounts().get(new NodeId("b1"))).isEqualTo(P);
    }

    @Test
    void growingFromOneNodeToThreeKeepsTheFirstNodesData() {
        ClusterLayout one = LayoutPlanner.plan(null, List.of(node("a", "z1", 100)), 3);
        ClusterLayout three = LayoutPlanner.plan(one,
                List.of(node("a", "z1", 100), node("b", "z2", 100), node("c", "z3", 100)), 3);
        assertZonesAndReplicas(three, 3, 3);
        assertThat(three.movesFrom(one)).isEqualTo(2 * P);
    }
}
