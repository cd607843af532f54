package dev.hangar.cluster.meta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.metadata.StoreStatistics;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReplicaStatisticsTest {
    private final AtomicInteger scans = new AtomicInteger();

    private StoreStatistics scan() {
        int scan = scans.incrementAndGet();
        return new StoreStatistics(scan, 0, 0, 0, 0);
    }

    @Test
    void theFirstCallCountsAndLaterOnesWithinTheTtlServeThatCount() {
        ReplicaStatistics statistics = new ReplicaStatistics(this::scan, Duration.ofHours(1));

        assertThat(statistics.current().objects()).isEqualTo(1);
        assertThat(statistics.current().objects()).isEqualTo(1);
        assertThat(scans).hasValue(1);
    }

    @Test
    void aCountOlderThanTheTtlIsServedWhileANewOneIsMadeInTheBackground() throws InterruptedException {
        ReplicaStatistics statistics = new ReplicaStatistics(this::scan, Duration.ZERO);

        assertThat(statistics.current().objects()).as("the first count, made by the call").isEqualTo(1);
        assertThat(statistics.current().objects()).as("served at once, a recount started").isEqualTo(1);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (statistics.current().objects() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(statistics.current().objects()).as("the background count, within 30 s").isGreaterThanOrEqualTo(2);
    }

    @Test
    void aFailedRecountKeepsTheLastCount() throws InterruptedException {
        AtomicInteger calls = new AtomicInteger();
        ReplicaStatistics statistics = new ReplicaStatistics(() -> {
            if (calls.incrementAndGet() > 1) {
                throw new IllegalStateException("metadata store is closed");
            }
            return new StoreStatistics(7, 0, 0, 0, 0);
        }, Duration.ZERO);

        assertThat(statistics.current().objects()).isEqualTo(7);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (calls.get() < 3 && System.nanoTime() < deadline) {
            assertThat(statistics.current().objects()).isEqualTo(7);
            Thread.sleep(10);
        }
        assertThat(calls.get()).as("recounts tried again after a failure").isGreaterThanOrEqualTo(3);
    }
}
