package dev.hangar.bench.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(10)
class ListenerSpecTest {

    @Test
    void readsPortTargetAndZone() {
        assertThat(ListenerSpec.parse("3901=node1:3901@z1", null)).isEqualTo(new ListenerSpec(3901, "node1", 3901, "z1"));
        assertThat(ListenerSpec.parse("13902=10.0.1.5:3902", "z2")).isEqualTo(new ListenerSpec(13902, "10.0.1.5", 3902, "z2"));
        assertThat(ListenerSpec.parse("3901=[fd00::5]:3901@z1", "z9")).isEqualTo(new ListenerSpec(3901, "fd00::5", 3901, "z1"));
        assertThat(new ListenerSpec(3901, "fd00::5", 3901, "z1")).hasToString("3901=[fd00::5]:3901@z1");
    }

    @Test
    void aListenerWithoutZoneNeedsTheDefaultOne() {
        assertThatThrownBy(() -> ListenerSpec.parse("3901=node1:3901", null)).hasMessageContaining("--target-zone");
    }

    @ParameterizedTest
    @ValueSource(strings = {"3901", "3901=node1", "node1:3901", "70000=node1:3901@z", "3901=node1:0@z", "3901=fd00::5:3901@z", "3901=node1:3901@"})
    void refusesMalformedListeners(String text) {
        assertThatThrownBy(() -> ListenerSpec.parse(text, "z")).isInstanceOf(IllegalArgumentException.class);
    }
}
