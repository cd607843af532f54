package dev.hangar.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.layout.NodeId;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class NetworkFaultsTest {
    private static final NodeId A = new NodeId("a");
    private static final NodeId B = new NodeId("b");
    private static final NodeId C = new NodeId("c");

    @Test
    void deliversAtOnceWithoutFaults() {
        assertThat(new NetworkFaults().verdict(A, B)).isEqualTo(new NetworkFaults.Verdict.Deliver(0));
    }

    @Test
    void activeFromTheFirstFaultUntilCleared() {
        NetworkFaults faults = new NetworkFaults();
        assertThat(faults.active()).isFalse();
        faults.partition(List.of(A), List.of(B));
        assertThat(faults.active()).isTrue();
        faults.heal();
        assertThat(faults.active()).as("healed: delays and drop rates stay, so hooks keep asking").isTrue();
        faults.clear();
        assertThat(faults.active()).isFalse();
        faults.delayBetween(A, B, Duration.ofMillis(1), Duration.ZERO);
        assertThat(faults.active()).isTrue();
    }

    @Test
    void delayStaysWithinFixedPlusJitter() {
        NetworkFaults faults = new NetworkFaults().setDefault(
                new NetworkFaults.LinkFaults(Duration.ofMillis(10), Duration.ofMillis(5), 0));
        for (int i = 0; i < 1000; i++) {
            long delay = ((NetworkFaults.Verdict.Deliver) faults.verdict(A, B)).delayNanos();
            assertThat(delay).isBetween(10_000_000L, 15_000_000L);
        }
    }

    @Test
    void perLinkSettingsOverrideTheDefaultAndAreDirected() {
        NetworkFaults faults = new NetworkFaults()
                .setDefault(new NetworkFaults.LinkFaults(Duration.ofMillis(1), Duration.ZERO, 0))
                .set(A, B, new NetworkFaults.LinkFaults(Duration.ofMillis(7), Duration.ZERO, 0));
        assertThat(faults.verdict(A, B)).isEqualTo(new NetworkFaults.Verdict.Deliver(7_000_000));
        assertThat(faults.verdict(B, A)).isEqualTo(new NetworkFaults.Verdict.Deliver(1_000_000));
    }

    @Test
    void partitionsCutBothWaysAndHeal() {
        NetworkFaults faults = new NetworkFaults().partition(List.of(A), List.of(B, C));
        assertThat(faults.verdict(A, B)).isInstanceOf(NetworkFaults.Verdict.Drop.class);
        assertThat(faults.verdict(C, A)).isInstanceOf(NetworkFaults.Verdict.Drop.class);
        assertThat(faults.verdict(B, C)).isInstanceOf(NetworkFaults.Verdict.Deliver.class);
        faults.heal();
        assertThat(faults.verdict(A, B)).isInstanceOf(NetworkFaults.Verdict.Deliver.class);
    }

    @Test
    void dropsAboutTheRequestedShare() {
        NetworkFaults faults = new NetworkFaults().set(A, B, new NetworkFaults.LinkFaults(Duration.ZERO, Duration.ZERO, 0.3));
        int dropped = 0;
        for (int i = 0; i < 10_000; i++) {
            if (faults.verdict(A, B) instanceof NetworkFaults.Verdict.Drop) {
                dropped++;
            }
        }
        assertThat(dropped).isBetween(2_700, 3_300);
    }
}
