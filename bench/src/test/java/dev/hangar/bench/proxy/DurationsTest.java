package dev.hangar.bench.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(10)
class DurationsTest {

    @ParameterizedTest
    @CsvSource({"0, 0", "0ms, 0", "250ns, 250", "250us, 250000", "250µs, 250000", "0.5ms, 500000", "50ms, 50000000",
        "1.25s, 1250000000", "2s, 2000000000", "' 10MS ', 10000000"})
    void readsAmountsInEveryUnit(String text, long nanos) {
        assertThat(Durations.parse(text)).isEqualTo(Duration.ofNanos(nanos));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ms", "5", "-5ms", "5 min", "5h", "1e3ms", "0.5.1ms"})
    void refusesWhatIsNotADurationWithAUnit(String text) {
        assertThatThrownBy(() -> Durations.parse(text)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(text.trim());
    }

    @Test
    void formatsInTheLargestUnitThatReadsWellAndParsesBack() {
        assertThat(Durations.format(Duration.ZERO)).isEqualTo("0");
        assertThat(Durations.format(Duration.ofMillis(50))).isEqualTo("50ms");
        assertThat(Durations.format(Duration.ofNanos(500_000))).isEqualTo("500us");
        assertThat(Durations.format(Duration.ofNanos(1_500_000))).isEqualTo("1.5ms");
        assertThat(Durations.format(Duration.ofSeconds(2))).isEqualTo("2s");
        assertThat(Durations.format(Duration.ofNanos(20))).isEqualTo("20ns");
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 1_000; i++) {
            Duration duration = Duration.ofNanos(random.nextLong(0, 100_000_000_000L) / (random.nextBoolean() ? 1 : 1000) );
            assertThat(Durations.parse(Durations.format(duration))).as("%s", duration).isEqualTo(duration);
        }
    }
}
