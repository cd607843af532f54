package dev.hangar.cluster.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.LayoutPlanner;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The groups of a layout, and their members after later layouts: the routing stays, the members follow. */
class GroupPlanTest {
    private static final int REPLICATION = 3;

    @Test
    void threeNodesFormThreeGroupsEachLedByAnother() {
        GroupPlan plan = GroupPlan.of(first(3));
        assertThat(plan.groups()).hasSize(3);
        assertThat(plan.groups().stream().map(GroupPlan.Group::preferredLeader).collect(Collectors.toSet()))
                .hasSize(3);
    }

    @Test
    void replacingANodeGivesEveryGroupTheNewNodeAndKeepsLeadersApart() {
        ClusterLayout first = first(3);
        GroupPlan formed = GroupPlan.of(first);
        ClusterLayout replaced = LayoutPlanner.plan(first, roles("n1", "n2", "n4"), REPLICATION);
        GroupPlan plan = formed.reconfigured(replaced);
        assertThat(plan.layoutVersion()).isEqualTo(replaced.version());
        assertThat(plan.groups()).hasSize(3).allSatisfy(group -> assertThat(group.members())
                .containsExactlyInAnyOrder(node("n1"), node("n2"), node("n4")));
        assertThat(plan.groups().stream().map(GroupPlan.Group::preferredLeader).collect(Collectors.toSet()))
                .as("preferred leaders").hasSize(3);
        assertSameRouting(formed, plan);
    }

    @Test
    void growingToFiveNodesSpreadsTheGroupsOverAllOfThem() {
        ClusterLayout first = first(3);
        GroupPlan formed = GroupPlan.of(first);
        GroupPlan plan = formed.reconfigured(LayoutPlanner.plan(first, roles("n1", "n2", "n3", "n4", "n5"),
                REPLICATION));
        assertThat(plan.groups()).as("as many groups as formed").hasSize(3);
        assertThat(plan.groups().stream().flatMap(group -> group.members().stream()).collect(Collectors.toSet()))
                .as("every node a member of some group").hasSize(5);
        assertThat(plan.groups().stream().map(GroupPlan.Group::preferredLeader).collect(Collectors.toSet()))
                .as("preferred leaders").hasSize(3);
        assertSameRouting(formed, plan);
    }

    @Test
    void membersFollowTheLatestLayoutWhateverCameBetween() {
        ClusterLayout first = first(3);
        ClusterLayout second = LayoutPlanner.plan(first, roles("n1", "n2", "n3", "n4"), REPLICATION);
        ClusterLayout third = LayoutPlanner.plan(second, roles("n2", "n3", "n4", "n5"), REPLICATION);
        GroupPlan formed = GroupPlan.of(first);
        GroupPlan plan = formed.reconfigured(third);
        assertThat(plan.byPartition()).as("planned again from the formation")
                .isEqualTo(GroupPlan.of(first).reconfigured(third).byPartition());
        assertThat(plan.groups()).allSatisfy(group -> assertThat(group.members())
                .doesNotContain(node("n1")).hasSize(3));
        assertThat(plan.groups().stream().map(GroupPlan.Group::preferredLeader).collect(Collectors.toSet()))
                .as("preferred leaders").hasSize(3);
        assertSameRouting(formed, plan);
    }

    @Test
    void aLayoutWithAnotherPartitionCountIsRefused() {
        GroupPlan formed = GroupPlan.of(first(3));
        ClusterLayout other = LayoutPlanner.plan(null, roles("n1", "n2", "n3"), REPLICATION, 64);
        assertThatThrownBy(() -> formed.reconfigured(other)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("64 partitions");
    }

    private static void assertSameRouting(GroupPlan formed, GroupPlan plan) {
        for (int i = 0; i < 1_000; i++) {
            String bucket = "bucket-" + i;
            assertThat(plan.groupOf(bucket).id()).as(bucket).isEqualTo(formed.groupOf(bucket).id());
        }
        assertThat(plan.groupOf(GroupPlan.ACCESS_KEYS).id()).isEqualTo(formed.groupOf(GroupPlan.ACCESS_KEYS).id());
    }

    private static ClusterLayout first(int nodes) {
        return LayoutPlanner.plan(null, roles(IntStream.rangeClosed(1, nodes).mapToObj(i -> "n" + i)
                .toArray(String[]::new)), REPLICATION);
    }

    private static List<NodeRole> roles(String... ids) {
        return Set.of(ids).stream().sorted().map(id -> new NodeRole(node(id), "z-" + id, 1)).toList();
    }

    private static NodeId node(String id) {
        return new NodeId(id);
    }
}
