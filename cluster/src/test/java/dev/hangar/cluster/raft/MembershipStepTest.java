package dev.hangar.cluster.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The steps from one membership to another, each one Ratis accepts (fewer new members than kept ones, or one joining
 * a group of one: {@code RaftConfigurationImpl.changeMajority}, which {@link MembershipStep#acceptable} restates),
 * ending at the target. {@code RaftReconfigurationTest} has Ratis itself accept them.
 */
class MembershipStepTest {
    @Test
    void aChangeOfAMinorityIsOneStep() {
        assertThat(MembershipStep.next(List.of("n1", "n2", "n3"), List.of("n1", "n2", "n4")))
                .containsExactly("n1", "n2", "n4");
        assertThat(MembershipStep.next(List.of("n1", "n2", "n3"), List.of("n2", "n1", "n3", "n4", "n5")))
                .containsExactly("n2", "n1", "n3", "n4", "n5");
        assertThat(MembershipStep.next(List.of("n1", "n2", "n3", "n4", "n5"), List.of("n3", "n4", "n5")))
                .containsExactly("n3", "n4", "n5");
    }

    @Test
    void replacingAMajorityFirstAddsThenRemoves() {
        List<String> first = MembershipStep.next(List.of("n1", "n2", "n3"), List.of("n3", "n4", "n5"));
        assertThat(first).containsExactly("n3", "n4", "n5", "n1", "n2");
        assertThat(MembershipStep.next(first, List.of("n3", "n4", "n5"))).containsExactly("n3", "n4", "n5");
    }

    @Test
    void aGroupOfOneGrowsOneMemberAtATime() {
        assertThat(MembershipStep.next(List.of("n1"), List.of("n1", "n2", "n3"))).containsExactly("n1", "n2");
        assertThat(MembershipStep.next(List.of("n1", "n2"), List.of("n1", "n2", "n3"))).containsExactly("n1", "n2", "n3");
        assertThat(MembershipStep.next(List.of("n1"), List.of("n2"))).containsExactlyInAnyOrder("n1", "n2");
        assertThat(MembershipStep.next(List.of("n1", "n2"), List.of("n2"))).containsExactly("n2");
    }

    @Test
    void anEmptyMembershipIsRefused() {
        assertThatThrownBy(() -> MembershipStep.next(List.of(), List.of("n1")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MembershipStep.next(List.of("n1"), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    // 2,000 random pairs of memberships over 9 nodes: every step is one Ratis accepts, and the target is reached
    // within a few steps.
    @Test
    void everyStepIsAcceptableAndTheTargetIsReached() {
        Random random = new Random(20261126);
        for (int round = 0; round < 2_000; round++) {
            List<String> current = randomMembers(random);
            List<String> target = randomMembers(random);
            List<List<String>> steps = new ArrayList<>();
            while (!Set.copyOf(current).equals(Set.copyOf(target))) {
                List<String> before = current;
                List<String> next = MembershipStep.next(before, target);
                assertThat(new HashSet<>(next)).as("no member twice in %s", next).hasSameSizeAs(next);
                long joining = next.stream().filter(member -> !before.contains(member)).count();
                assertThat(MembershipStep.acceptable(before.size(), next.size(), joining, next.size() - joining))
                        .as("step %s -> %s (towards %s)", before, next, target).isTrue();
                steps.add(next);
                assertThat(steps).as("steps towards %s", target).hasSizeLessThanOrEqualTo(8);
                current = next;
            }
        }
    }

    private static List<String> randomMembers(Random random) {
        List<String> nodes = new ArrayList<>();
        for (int i = 1; i <= 9; i++) {
            nodes.add("n" + i);
        }
        java.util.Collections.shuffle(nodes, random);
        return List.copyOf(nodes.subList(0, 1 + random.nextInt(5)));
    }
}
