package dev.hangar.cluster.meta;

import dev.hangar.metadata.StoreStatistics;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The statistics of this node's replica, counted by a scan of the whole replica and so at most once per
 * {@code ttl}: the first call counts, later ones get the last count and, once it is older than that, start a new
 * count in the background — a metrics scrape never waits for a scan.
 */
final class ReplicaStatistics {
    private final Supplier<StoreStatistics> scan;
    private final Duration ttl;
    private final AtomicBoolean recounting = new AtomicBoolean();
    private volatile @Nullable Counted counted;

    private record Counted(StoreStatistics statistics, long countedAtNanos) {}

    /** @param scan counts the replica (a whole scan); may throw once the store is closed */
    ReplicaStatistics(Supplier<StoreStatistics> scan, Duration ttl) {
        this.scan = scan;
        this.ttl = ttl;
    }

    StoreStatistics current() {
        Counted last = counted;
        long now = System.nanoTime();
        if (last == null) {
            StoreStatistics statistics = scan.get();
            counted = new Counted(statistics, now);
            return statistics;
        }
        if (now - last.countedAtNanos() >= ttl.toNanos() && recounting.compareAndSet(false, true)) {
            Thread.ofVirtual().name("hangar-meta-statistics").start(this::recount);
        }
        return last.statistics();
    }

    private void recount() {
        try {
            long now = System.nanoTime();
            counted = new Counted(scan.get(), now);
        } catch (RuntimeException e) {
            // Closed meanwhile, or the replica failed: the last count stays until the next try.
        } finally {
            recounting.set(false);
        }
    }
}
