package dev.hangar.cluster.table;

import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.cluster.layout.NodeId;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HybridLogicalClockTest {
    private static final NodeId A = new NodeId("a");
    private static final NodeId B = new NodeId("b");

    @Test
    void staysMonotonicWhenThePhysicalClockStallsOrGoesBack() {
        AtomicLong physical = new AtomicLong(1_000);
        HybridLogicalClock clock = new HybridLogicalClock(A, physical::get);
        Timestamp first = clock.now();
        Timestamp second = clock.now();
        physical.set(900);
        Timestamp third = clock.now();
        physical.set(2_000);
        Timestamp fourth = clock.now();

        assertThat(first).isEqualTo(new Timestamp(1_000, 0, A));
        assertThat(second).isEqualTo(new Timestamp(1_000, 1, A));
        assertThat(third).isEqualTo(new Timestamp(1_000, 2, A));
        assertThat(fourth).isEqualTo(new Timestamp(2_000, 0, A));
    }

    @Test
    void ordersAfterEveryReceivedTimestamp() {
        AtomicLong physical = new AtomicLong(1_000);
        HybridLogicalClock clock = new HybridLogicalClock(A, physical::get);
        Timestamp ahead = new Timestamp(5_000, 7, B);
        clock.update(ahead);
        Timestamp next = clock.now();
        assertThat(next).isGreaterThan(ahead);
        assertThat(next.wall()).isEqualTo(5_000);

        // A received timestamp behind the clock changes nothing.
        clock.update(new Timestamp(10, 0, B));
        assertThat(clock.now()).isGreaterThan(next);

        // Once physical time passes the received one, timestamps follow physical time again.
        physical.set(6_000);
        assertThat(clock.now()).isEqualTo(new Timestamp(6_000, 0, A));
    }

    @Test
    void refusesTimestampsFurtherAheadThanTheBoundAndKeepsWorking() {
        AtomicLong physical = new AtomicLong(1_000_000);
        HybridLogicalClock clock = new HybridLogicalClock(A, physical::get, Duration.ofMinutes(1));
        Timestamp before = clock.now();

        for (Timestamp far : new Timestamp[] {
                new Timestamp(1_000_000 + 60_001, 0, B), new Timestamp(Long.MAX_VALUE, Integer.MAX_VALUE, B)}) {
            assertThatThrownBy(() -> clock.update(far))
                    .isInstanceOf(FutureTimestampException.class)
                    .hasMessageContaining("ahead of the clock of node a");
            assertThatThrownBy(() -> clock.check(far)).isInstanceOf(FutureTimestampException.class);
        }
        // Nothing was taken in: the clock goes on from where it was.
        assertThat(clock.last()).isEqualTo(before);
        assertThat(clock.now()).isEqualTo(new Timestamp(1_000_000, 1, A));

        // Up to the bound, a clock ahead of ours is followed as before.
        Timestamp ahead = new Timestamp(1_000_000 + 60_000, 3, B);
        clock.update(ahead);
        assertThat(clock.now()).isGreaterThan(ahead);
    }

    @Test
    void sameWallAndCounterAreOrderedByNode() {
        assertThat(new Timestamp(5, 1, B)).isGreaterThan(new Timestamp(5, 1, A));
        assertThat(new Timestamp(5, 2, A)).isGreaterThan(new Timestamp(5, 1, B));
        assertThat(new Timestamp(6, 0, A)).isGreaterThan(new Timestamp(5, 9, B));
    }
}
