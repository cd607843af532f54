package dev.hangar.bench.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(10)
class DelayTableTest {

    private static OneWayDelay delay(String text) {
        return OneWayDelay.parse(text, Jitter.UNIFORM);
    }

    @Test
    void garagesTopologySetsBothDirectionsOfEachPair() {
        DelayTable table = DelayTable.parse(List.of("z1:z1=0.5ms", "z2:z2=0.5ms", "z3:z3=0.5ms"), delay("50ms+-10ms"), Jitter.UNIFORM);
        assertThat(table.between("z1", "z1")).isEqualTo(delay("0.5ms"));
        assertThat(table.between("z3", "z3")).isEqualTo(delay("0.5ms"));
        assertThat(table.between("z1", "z2")).isEqualTo(delay("50ms+-10ms"));
        assertThat(table.between("z3", "z1")).isEqualTo(delay("50ms+-10ms"));
    }

    @Test
    void aOneWayEntryOverridesItsDirectionOfATwoWayEntryWhateverTheOrder() {
        DelayTable table = DelayTable.parse(List.of("a->b=70ms", "a:b=50ms", "c:d=1ms"), OneWayDelay.NONE, Jitter.UNIFORM);
        assertThat(table.between("a", "b")).isEqualTo(delay("70ms"));
        assertThat(table.between("b", "a")).isEqualTo(delay("50ms"));
        assertThat(table.between("d", "c")).isEqualTo(delay("1ms"));
        assertThat(table.between("a", "c")).isEqualTo(OneWayDelay.NONE);
    }

    @Test
    void theJitterShapeAppliesToEveryEntry() {
        DelayTable table = DelayTable.parse(List.of("a:b=50ms+-10ms"), OneWayDelay.NONE, Jitter.NORMAL);
        assertThat(table.between("b", "a").shape()).isEqualTo(Jitter.NORMAL);
    }

    @Test
    void zoneNamesMayHoldDashes() {
        DelayTable table = DelayTable.parse(List.of("eu-west->us-east=40ms"), OneWayDelay.NONE, Jitter.UNIFORM);
        assertThat(table.between("eu-west", "us-east")).isEqualTo(delay("40ms"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a:b", "a=5ms", "a:b:c=5ms", "a->b->c=5ms", ":b=5ms", "a b:c=5ms", "a:b=soon"})
    void refusesMalformedEntries(String entry) {
        assertThatThrownBy(() -> DelayTable.parse(List.of(entry), OneWayDelay.NONE, Jitter.UNIFORM)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesADirectionGivenTwice() {
        assertThatThrownBy(() -> DelayTable.parse(List.of("a:b=5ms", "b:a=6ms"), OneWayDelay.NONE, Jitter.UNIFORM))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("given twice");
        assertThatThrownBy(() -> DelayTable.parse(List.of("a->b=5ms", "a->b=6ms"), OneWayDelay.NONE, Jitter.UNIFORM))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a->b");
    }
}
