package dev.hangar.bench.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(10)
class OneWayDelayTest {

    @Test
    void readsABaseAndAnOptionalJitter() {
        assertThat(OneWayDelay.parse("0.5ms", Jitter.UNIFORM)).isEqualTo(new OneWayDelay(Duration.ofNanos(500_000), Duration.ZERO, Jitter.UNIFORM));
        OneWayDelay garage = new OneWayDelay(Duration.ofMillis(50), Duration.ofMillis(10), Jitter.UNIFORM);
        assertThat(OneWayDelay.parse("50ms±10ms", Jitter.UNIFORM)).isEqualTo(garage);
        assertThat(OneWayDelay.parse("50ms+-10ms", Jitter.UNIFORM)).isEqualTo(garage);
        assertThat(OneWayDelay.parse(" 50ms +/- 10ms ", Jitter.UNIFORM)).isEqualTo(garage);
        assertThat(OneWayDelay.parse("0", Jitter.NORMAL)).isEqualTo(new OneWayDelay(Duration.ZERO, Duration.ZERO, Jitter.NORMAL));
        assertThat(garage).hasToString("50ms±10ms");
        assertThat(OneWayDelay.parse("50ms+-10ms", Jitter.NORMAL)).hasToString("50ms±10ms (normal)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "±10ms", "50ms±", "50ms±-1ms", "-50ms", "50", "fast"})
    void refusesMalformedDelays(String text) {
        assertThatThrownBy(() -> OneWayDelay.parse(text, Jitter.UNIFORM)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void withoutJitterEveryDrawIsTheBase() {
        OneWayDelay delay = OneWayDelay.parse("20ms", Jitter.UNIFORM);
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 100; i++) {
            assertThat(delay.sampleNanos(random)).isEqualTo(20_000_000L);
        }
    }

    /** Seeded property: every draw lies in [min, max], min is never below 0, and the draws centre on the base. */
    @ParameterizedTest
    @EnumSource(Jitter.class)
    void drawsStayWithinBoundsAndNeverGoNegative(Jitter shape) {
        SplittableRandom cases = new SplittableRandom(11);
        for (int c = 0; c < 200; c++) {
            OneWayDelay delay = new OneWayDelay(Duration.ofNanos(cases.nextLong(0, 100_000_000)), Duration.ofNanos(cases.nextLong(0, 100_000_000)), shape);
            SplittableRandom random = new SplittableRandom(c);
            for (int i = 0; i < 500; i++) {
                long draw = delay.sampleNanos(random);
                assertThat(draw).as("%s, draw %d", delay, i).isBetween(delay.minNanos(), delay.maxNanos());
            }
            assertThat(delay.minNanos()).isNotNegative();
        }
    }

    @ParameterizedTest
    @EnumSource(Jitter.class)
    void drawsCentreOnTheBaseAndSpreadAsTheShapeSays(Jitter shape) {
        OneWayDelay delay = new OneWayDelay(Duration.ofMillis(50), Duration.ofMillis(10), shape);
        SplittableRandom random = new SplittableRandom(3);
        double[] draws = new double[20_000];
        for (int i = 0; i < draws.length; i++) {
            draws[i] = delay.sampleNanos(random) / 1e6;
        }
        double mean = Arrays.stream(draws).average().orElseThrow();
        double deviation = Math.sqrt(Arrays.stream(draws).map(d -> (d - mean) * (d - mean)).average().orElseThrow());
        assertThat(mean).isBetween(49.5, 50.5);
        // Uniform on ±10: deviation 10 / sqrt(3) = 5.77; normal: 10, a little less after the cut at 3 deviations.
        double expected = shape == Jitter.UNIFORM ? 10 / Math.sqrt(3) : 9.87;
        assertThat(deviation).isBetween(expected * 0.95, expected * 1.05);
    }

    @Test
    void aJitterLargerThanTheBaseIsCutAtZero() {
        OneWayDelay delay = OneWayDelay.parse("1ms+-5ms", Jitter.UNIFORM);
        SplittableRandom random = new SplittableRandom(5);
        int zeros = 0;
        for (int i = 0; i < 1_000; i++) {
            long draw = delay.sampleNanos(random);
            assertThat(draw).isNotNegative();
            zeros += draw == 0 ? 1 : 0;
        }
        assertThat(delay.minNanos()).isZero();
        // 4 of the 10 ms of the uniform range fall below 0.
        assertThat(zeros).isBetween(300, 500);
    }
}
