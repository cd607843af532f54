package dev.hangar.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PacerTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void waitsUntilTheBytesReadFitTheRate() {
        Pacer pacer = new Pacer(1000, 0);
        // 500 bytes at 1000 B/s are due at 0.5 s; read at 0.1 s, the reader waits 0.4 s.
        assertThat(pacer.waitAfter(500, SECOND / 10)).isEqualTo(4 * SECOND / 10);
        // 1000 bytes due at 1 s; at 2 s the reader is behind and does not wait.
        assertThat(pacer.waitAfter(500, 2 * SECOND)).isZero();
    }

    @Test
    void savesUpWaitsTooShortToSleep() {
        Pacer pacer = new Pacer(1_000_000, 0);
        assertThat(pacer.waitAfter(1000, 0)).isZero();
        assertThat(pacer.waitAfter(10_000, 0)).isEqualTo(11 * SECOND / 1000);
    }

    @Test
    void zeroMeansNoLimitAndLargeCountsDoNotOverflow() {
        assertThat(new Pacer(0, 0).waitAfter(Long.MAX_VALUE / 2, 0)).isZero();
        Pacer pacer = new Pacer(16L << 20, 0);
        assertThat(pacer.waitAfter(16L << 30, 0)).isEqualTo(1024 * SECOND);
    }
}
