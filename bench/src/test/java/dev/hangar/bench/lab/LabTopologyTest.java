package dev.hangar.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.bench.proxy.DelayTable;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LabTopologyTest {

    @Test
    void nodesEachInAZoneOfTheirOwnGetTheRoundTripOnEveryLink() {
        LabTopology three = LabTopology.parse("3");
        assertThat(three.storageIds()).containsExactly("n1", "n2", "n3");
        assertThat(three.zones()).containsEntry("n1", "z1").containsEntry("n3", "z3")
                .containsEntry(LabCluster.GATEWAY, "zg").hasSize(4);
        DelayTable delays = three.delays(Duration.ofMillis(100), 20);
        assertThat(delays.between("z1", "z2").base()).isEqualTo(Duration.ofMillis(50));
        assertThat(delays.between("z1", "z2").jitter()).isEqualTo(Duration.ofMillis(10));
        assertThat(delays.between("zg", "z3").base()).isEqualTo(Duration.ofMillis(50));
    }

    @Test
    void garagesSixNodesInThreeZonesAreFastInsideAZone() {
        LabTopology six = LabTopology.parse("6x3");
        assertThat(six.storageZones()).isEqualTo(List.of("z1", "z1", "z2", "z2", "z3", "z3"));
        assertThat(six.gatewayZone()).isEqualTo("z1");
        DelayTable delays = six.delays(Duration.ofMillis(100), 20);
        assertThat(delays.between("z2", "z2").base()).isEqualTo(Duration.ofNanos(500_000));
        assertThat(delays.between("z2", "z2").jitter()).isZero();
        assertThat(delays.between("z1", "z3").base()).isEqualTo(Duration.ofMillis(50));
        assertThat(delays.between("z1", "z1").base()).isEqualTo(Duration.ofNanos(500_000));
    }

    @Test
    void noDelayAtZeroRoundTrip() {
        DelayTable delays = LabTopology.parse("5").delays(Duration.ZERO, 20);
        assertThat(delays.between("z1", "z5").base()).isZero();
        assertThat(delays.between("z1", "z5").jitter()).isZero();
    }

    @Test
    void refusesWhatIsNoTopology() {
        assertThatThrownBy(() -> LabTopology.parse("2")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 3");
        assertThatThrownBy(() -> LabTopology.parse("6x7")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LabTopology.parse("three")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("N or NxZ");
    }
}
