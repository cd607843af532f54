package dev.hangar.cluster.replication;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Waits for {@code needed} of a set of parallel calls to succeed, and no longer: the answer is known
 * as soon as enough succeeded or too many failed, so one slow replica never slows a write.
 */
final class Quorum {
    private Quorum() {}

    /** Completes once {@code needed} calls succeeded; fails once that has become impossible. */
    static CompletableFuture<Void> of(List<? extends CompletableFuture<?>> calls, int needed) {
        CompletableFuture<Void> result = new CompletableFuture<>();
        if (needed <= 0) {
            result.complete(null);
            return result;
        }
        int allowedFailures = calls.size() - needed;
        AtomicInteger succeeded = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        if (allowedFailures < 0) {
            result.completeExceptionally(new IllegalStateException(
                    "only " + calls.size() + " replicas, " + needed + " needed"));
            return result;
        }
        for (CompletableFuture<?> call : calls) {
            call.whenComplete((value, failure) -> {
                if (failure == null) {
                    if (succeeded.incrementAndGet() == needed) {
                        result.complete(null);
                    }
                } else {
                    failures.add(failure);
                    if (failed.incrementAndGet() == allowedFailures + 1) {
                        IllegalStateException lost = new IllegalStateException(failed.get() + " of "
                                + calls.size() + " replicas failed");
                        failures.forEach(lost::addSuppressed);
                        result.completeExceptionally(lost);
                    }
                }
            });
        }
        return result;
    }
}
