package dev.hangar.cluster.membership;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.LayoutPlanner;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import dev.hangar.cluster.membership.PeerStatus.State;
import dev.hangar.cluster.table.MergeRuleLaws;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * {@link ReplicaOrder}: replicas believed up first, then suspect, then down or unknown; closest first
 * within each; the layout's order among equals; nothing left out.
 */
class ReplicaOrderTest {
    private static final NodeId A = new NodeId("a");
    private static final NodeId B = new NodeId("b");
    private static final NodeId C = new NodeId("c");
    private static final NodeId D = new NodeId("d");
    private static final NodeId GATEWAY = new NodeId("gateway");
    private static final int CASES = 500;

    /** a, b in zone 1, c, d in zone 2, a gateway in zone 2; one replica of each partition per node. */
    private static final ClusterLayout LAYOUT = LayoutPlanner.plan(null, List.of(new NodeRole(A, "z1", 1),
            new NodeRole(B, "z1", 1), new NodeRole(C, "z2", 1), new NodeRole(D, "z2", 1),
            new NodeRole(GATEWAY, "z2", 0)), 4);
    private static final List<NodeId> REPLICAS = List.of(A, B, C, D);

    private static PeerStatus status(NodeId node, State state) {
        return new PeerStatus(node, "z", 1, InetSocketAddress.createUnresolved(node.value(), 1), state, Instant.EPOCH,
                1);
    }

    private static Map<NodeId, PeerStatus> statuses(Map<NodeId, State> states) {
        Map<NodeId, PeerStatus> statuses = new HashMap<>();
        states.forEach((node, state) -> statuses.put(node, status(node, state)));
        return statuses;
    }

    @Test
    void withoutMembershipSelfThenItsZoneThenTheLayoutsOrder() {
        assertThat(ReplicaOrder.readOrder(LAYOUT, B, REPLICAS, Map.of())).containsExactly(B, A, C, D);
        assertThat(ReplicaOrder.readOrder(LAYOUT, GATEWAY, REPLICAS, Map.of())).containsExactly(C, D, A, B);
        assertThat(ReplicaOrder.readOrder(LAYOUT, new NodeId("stranger"), REPLICAS, Map.of()))
                .as("a node outside the layout has no zone").containsExactly(A, B, C, D);
    }

    @Test
    void upFirstThenSuspectThenDownOrUnknownClosestFirstWithinEach() {
        Map<NodeId, PeerStatus> seen = statuses(Map.of(A, State.UP, B, State.DOWN, C, State.SUSPECT, D, State.UP));
        assertThat(ReplicaOrder.readOrder(LAYOUT, GATEWAY, REPLICAS, seen)).containsExactly(D, A, C, B);

        // Unknown is as good as down: d, unknown but in the gateway's zone, before a, down in another.
        Map<NodeId, PeerStatus> dUnknown = statuses(Map.of(A, State.DOWN, B, State.UP, C, State.UP));
        assertThat(ReplicaOrder.readOrder(LAYOUT, GATEWAY, REPLICAS, dUnknown)).containsExactly(C, B, D, A);
    }

    @Test
    void selfIsAlwaysUpAndFirst() {
        assertThat(ReplicaOrder.readOrder(LAYOUT, C, REPLICAS, statuses(Map.of(A, State.UP, B, State.UP))))
                .as("self unknown to membership").containsExactly(C, A, B, D);
        assertThat(ReplicaOrder.readOrder(LAYOUT, C, REPLICAS, statuses(Map.of(C, State.DOWN, D, State.UP))))
                .as("self said down").containsExactly(C, D, A, B);
    }

    /**
     * Over random layouts (zones, gateways, replication factors), readers (members, gateways, a node
     * outside the layout) and membership views (some nodes unknown): every replica is in the order
     * once; the order is sorted by believed state, then distance; equals keep the layout's order.
     */
    @Test
    void everyReplicaOnceSortedByStateThenDistanceEqualsInLayoutOrder() {
        long seed = MergeRuleLaws.seed();
        RandomGenerator random = MergeRuleLaws.generator(seed);
        for (int i = 0; i < CASES; i++) {
            String replay = "seed " + seed + ", case " + i;
            List<NodeRole> roles = randomRoles(random);
            ClusterLayout layout = LayoutPlanner.plan(null, roles, 1 + random.nextInt(3));
            NodeId self =
                    random.nextInt(5) == 0 ? new NodeId("outsider") : roles.get(random.nextInt(roles.size())).id();
            List<NodeId> replicas = layout.replicas(random.nextInt(layout.partitions()));
            Map<NodeId, PeerStatus> seen = new HashMap<>();
            for (NodeRole role : roles) {
                int pick = random.nextInt(4);
                if (pick < 3) {
                    seen.put(role.id(), status(role.id(), State.values()[pick]));
                }
            }

            List<NodeId> order = ReplicaOrder.readOrder(layout, self, replicas, Map.copyOf(seen));

            assertThat(order).as("every replica once, %s", replay).containsExactlyInAnyOrderElementsOf(replicas);
            for (int j = 1; j < order.size(); j++) {
                NodeId before = order.get(j - 1), after = order.get(j);
                int[] keyBefore = key(layout, self, seen, before), keyAfter = key(layout, self, seen, after);
                int compared = Arrays.compare(keyBefore, keyAfter);
                assertThat(compared).as("%s before %s, %s: %s", before, after, replay, order).isLessThanOrEqualTo(0);
                if (compared == 0) {
                    assertThat(replicas.indexOf(before)).as("equals in layout order, %s", replay)
                            .isLessThan(replicas.indexOf(after));
                }
            }
        }
    }

    /** The order's key, from the rules as the class states them: (state rank, distance). */
    private static int[] key(ClusterLayout layout, NodeId self, Map<NodeId, PeerStatus> seen, NodeId node) {
        if (node.equals(self)) {
            return new int[] {0, 0};
        }
        PeerStatus status = seen.get(node);
        int state = status == null ? 2 : switch (status.state()) {
            case UP -> 0;
            case SUSPECT -> 1;
            case DOWN -> 2;
        };
        String zone = layout.role(self).map(NodeRole::zone).orElse(null);
        boolean sameZone = zone != null && Objects.equals(layout.role(node).map(NodeRole::zone).orElse(null), zone);
        return new int[] {state, sameZone ? 1 : 2};
    }

    /** One to seven nodes in up to three zones, some gateways, at least one storage node. */
    private static List<NodeRole> randomRoles(RandomGenerator random) {
        int count = 1 + random.nextInt(7);
        List<NodeRole> roles = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            long capacity = n == 0 || random.nextInt(4) > 0 ? 1 + random.nextInt(100) : 0;
            roles.add(new NodeRole(new NodeId("n" + n), "z" + random.nextInt(3), capacity));
        }
        return roles;
    }
}
