package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StatisticsSnapshotTest {
    private static final long HOUR = TimeUnit.HOURS.toNanos(1);
    private final AtomicInteger counts = new AtomicInteger();

    @Test
    void aFreshValueIsReusedAndAStaleOneTakenAgainByTheCall() {
        StatisticsSnapshot<Integer> fresh = StatisticsSnapshot.taken(counts::incrementAndGet, 0, HOUR);
        assertThat(fresh.get()).isEqualTo(1);
        assertThat(fresh.get()).isEqualTo(1);

        StatisticsSnapshot<Integer> stale = StatisticsSnapshot.taken(counts::incrementAndGet, 0, 0);
        assertThat(stale.get()).isEqualTo(2);
        assertThat(stale.get()).as("taken again by the call itself").isEqualTo(3);
    }

    @Test
    void inTheBackgroundAStaleValueIsServedWhileANewOneIsCounted() throws InterruptedException {
        StatisticsSnapshot<Integer> snapshot = StatisticsSnapshot.inBackground(counts::incrementAndGet, 0, 0);

        assertThat(snapshot.get()).as("the first count, made by the call").isEqualTo(1);
        assertThat(snapshot.get()).as("served at once, a recount started").isEqualTo(1);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (snapshot.get() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(snapshot.get()).as("the background count, within 30 s").isGreaterThanOrEqualTo(2);
    }

    @Test
    void aFailedCountKeepsTheLastValue() throws InterruptedException {
        AtomicInteger calls = new AtomicInteger();
        StatisticsSnapshot<Integer> snapshot = StatisticsSnapshot.inBackground(() -> {
            if (calls.incrementAndGet() > 1) {
                throw new IllegalStateException("metadata store is closed");
            }
            return 7;
        }, 0, 0);

        assertThat(snapshot.get()).isEqualTo(7);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (calls.get() < 3 && System.nanoTime() < deadline) {
            assertThat(snapshot.get()).isEqualTo(7);
            Thread.sleep(10);
        }
        assertThat(calls.get()).as("counts tried again after a failure").isGreaterThanOrEqualTo(3);
    }
}
