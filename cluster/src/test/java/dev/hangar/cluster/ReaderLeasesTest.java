package dev.hangar.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.BlockId;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The lease registry on its own: tickets, counts, deferral and the release that asks for a pass. */
class ReaderLeasesTest {
    private final AtomicInteger passesAsked = new AtomicInteger();
    private final ReaderLeases leases = new ReaderLeases(passesAsked::incrementAndGet);
    private final BlockId a = BlockId.random();
    private final BlockId b = BlockId.random();

    @Test
    void aBlockIsHeldUntilItsLastLeaseEnds() {
        ReaderLeases.Lease first = leases.begin().hold(List.of(a, b));
        ReaderLeases.Lease second = leases.begin().hold(List.of(a));

        first.close();
        assertThat(leases.deferIfLeased(a)).isTrue();
        assertThat(leases.deferIfLeased(b)).isFalse();

        second.close();
        assertThat(leases.deferIfLeased(a)).isFalse();
        assertThat(leases.heldBlocks()).isZero();
    }

    @Test
    void closingALeaseTwiceReleasesItOnce() {
        ReaderLeases.Lease first = leases.begin().hold(List.of(a));
        ReaderLeases.Lease second = leases.begin().hold(List.of(a));

        first.close();
        first.close();

        assertThat(leases.deferIfLeased(a)).as("the second lease still holds the block").isTrue();
        second.close();
        assertThat(leases.deferIfLeased(a)).isFalse();
    }

    @Test
    void theLastReleaseOfADeferredBlockAsksForAPass() {
        ReaderLeases.Lease deferred = leases.begin().hold(List.of(a));
        ReaderLeases.Lease untouched = leases.begin().hold(List.of(b));
        assertThat(leases.deferIfLeased(a)).isTrue();

        untouched.close();
        assertThat(passesAsked).as("b was never deferred").hasValue(0);

        deferred.close();
        assertThat(passesAsked).hasValue(1);
    }

    @Test
    void aReadingHoldsOnlyOnce() {
        ReaderLeases.Reading reading = leases.begin();
        reading.hold(List.of(a)).close();

        assertThatThrownBy(() -> reading.hold(List.of(b))).isInstanceOf(IllegalStateException.class);
        reading.close();
    }

    @Test
    void readingsBegunBeforeABarrierAreWaitedFor() throws InterruptedException {
        ReaderLeases.Reading before = leases.begin();
        long barrier = leases.barrier();
        ReaderLeases.Reading after = leases.begin();

        assertThat(leases.awaitReadersBefore(barrier, Duration.ofMillis(20)))
                .as("a reading begun before the barrier is still looking up").isFalse();

        before.close();
        assertThat(leases.awaitReadersBefore(barrier, Duration.ofMillis(20)))
                .as("one begun after the barrier does not count").isTrue();
        after.close();
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aWaitEndsWhenTheEarlierReadingHoldsItsLease() throws Exception {
        ReaderLeases.Reading reading = leases.begin();
        long barrier = leases.barrier();
        CompletableFuture<Boolean> waited = CompletableFuture.supplyAsync(() -> {
            try {
                return leases.awaitReadersBefore(barrier, Duration.ofSeconds(20));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        ReaderLeases.Lease lease = reading.hold(List.of(a));

        assertThat(waited.get(20, TimeUnit.SECONDS)).isTrue();
        // What the reading found is counted by the time its ticket is gone.
        assertThat(leases.deferIfLeased(a)).isTrue();
        lease.close();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void concurrentReadersNeverLoseACount() throws Exception {
        int threads = 8;
        int rounds = 20_000;
        List<CompletableFuture<Void>> readers = new java.util.ArrayList<>();
        for (int t = 0; t < threads; t++) {
            readers.add(CompletableFuture.runAsync(() -> {
                for (int i = 0; i < rounds; i++) {
                    try (ReaderLeases.Lease lease = leases.begin().hold(List.of(a, b))) {
                        assertThat(leases.deferIfLeased(a)).isTrue();
                    }
                }
            }, command -> Thread.ofPlatform().start(command)));
        }
        CompletableFuture.allOf(readers.toArray(CompletableFuture[]::new)).get(50, TimeUnit.SECONDS);

        assertThat(leases.heldBlocks()).isZero();
        assertThat(leases.awaitReadersBefore(leases.barrier(), Duration.ZERO)).isTrue();
        assertThat(passesAsked.get()).as("deferred blocks released asked for passes").isPositive();
    }
}
