package dev.hangar.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FailoverTest {

    @Test
    void theLongestGapIsWithinTheRunAndCountsItsEdges() {
        assertThat(Failover.longestGap(List.of(1L, 2L, 7L, 9L), 10)).isEqualTo(5);
        // Nothing answered for the first 6 ns, nor for the last 4.
        assertThat(Failover.longestGap(List.of(6L), 10)).isEqualTo(6);
        assertThat(Failover.longestGap(List.of(2L), 10)).isEqualTo(8);
        // A straggler ending after the run (at 25) is no success within it.
        assertThat(Failover.longestGap(List.of(1L, 2L, 3L, 25L), 10)).isEqualTo(7);
        assertThat(Failover.longestGap(List.of(), 10)).isEqualTo(10);
    }
}
