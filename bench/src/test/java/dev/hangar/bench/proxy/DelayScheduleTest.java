package dev.hangar.bench.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class DelayScheduleTest {

    @Test
    void withoutJitterEachChunkLeavesItsDelayAfterItArrived() {
        DelaySchedule schedule = new DelaySchedule(OneWayDelay.parse("50ms", Jitter.UNIFORM), new SplittableRandom(1));
        assertThat(schedule.releaseAt(1_000)).isEqualTo(50_001_000L);
        assertThat(schedule.releaseAt(2_000)).isEqualTo(50_002_000L);
    }

    @Test
    void aChunkDrawnShorterWaitsForTheChunkBeforeIt() {
        // The first chunk draws 60 ms, the second 40 ms: released alone it would overtake.
        long[] draws = {60_000_000, 40_000_000};
        OneWayDelay delay = new OneWayDelay(Duration.ofMillis(50), Duration.ofMillis(10), Jitter.UNIFORM);
        DelaySchedule schedule = new DelaySchedule(delay, new ScriptedDraws(delay, draws));
        long first = schedule.releaseAt(0);
        long second = schedule.releaseAt(1_000_000);
        assertThat(first).isEqualTo(60_000_000L);
        assertThat(second).isEqualTo(first);
    }

    /**
     * Seeded property over random delays and arrival patterns: releases never go backwards (no
     * reordering), no chunk leaves before its arrival plus the smallest possible draw, and a chunk
     * is held past its own latest draw only to wait for the chunk before it.
     */
    @Test
    void releasesAreInOrderAndNeverEarly() {
        SplittableRandom cases = new SplittableRandom(17);
        for (int c = 0; c < 300; c++) {
            Jitter shape = cases.nextBoolean() ? Jitter.UNIFORM : Jitter.NORMAL;
            OneWayDelay delay = new OneWayDelay(Duration.ofNanos(cases.nextLong(0, 60_000_000)), Duration.ofNanos(cases.nextLong(0, 20_000_000)), shape);
            DelaySchedule schedule = new DelaySchedule(delay, new SplittableRandom(c));
            // Start near the wrap of nanoTime half the time: comparisons must survive it.
            long arrival = cases.nextBoolean() ? Long.MAX_VALUE - 500_000_000L : cases.nextLong();
            long previous = 0;
            for (int i = 0; i < 1_000; i++) {
                arrival += cases.nextLong(0, 2 * delay.maxNanos() / 10 + 1_000);
                long release = schedule.releaseAt(arrival);
                String what = delay + ", chunk " + i;
                assertThat(release - arrival).as(what).isGreaterThanOrEqualTo(delay.minNanos());
                if (i > 0) {
                    assertThat(release - previous).as(what).isNotNegative();
                    assertThat(release - arrival).as(what).isLessThanOrEqualTo(Math.max(delay.maxNanos(), previous - arrival));
                } else {
                    assertThat(release - arrival).as(what).isLessThanOrEqualTo(delay.maxNanos());
                }
                previous = release;
            }
        }
    }

    /** Hands out given draws as uniform offsets of {@code delay}, so a test picks each chunk's draw. */
    private static final class ScriptedDraws implements java.util.random.RandomGenerator {

        private final OneWayDelay delay;
        private final long[] draws;
        private int next;

        ScriptedDraws(OneWayDelay delay, long[] draws) {
            this.delay = delay;
            this.draws = draws;
        }

        @Override
        public double nextDouble() {
            // UNIFORM maps u to base + jitter * (2u - 1).
            double offset = (draws[next++] - delay.base().toNanos()) / (double) delay.jitter().toNanos();
            return (offset + 1) / 2;
        }

        @Override
        public long nextLong() {
            throw new UnsupportedOperationException();
        }
    }
}
