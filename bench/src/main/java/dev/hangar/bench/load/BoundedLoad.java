package dev.hangar.bench.load;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.function.IntFunction;

/**
 * Issues requests from one thread with at most a fixed number in flight, stops issuing at a count or
 * a deadline, whichever comes first, and waits for the requests in flight. The tasks record their own
 * outcome: a task's future failing does not stop the load.
 */
final class BoundedLoad {

    private BoundedLoad() {
    }

    /**
     * Runs {@code task.apply(i)} for {@code i} in {@code [0, count)} while the deadline has not
     * passed. Returns how many tasks were issued (all of them have completed on return).
     */
    static int run(int count, int concurrency, Deadline deadline, IntFunction<CompletableFuture<?>> task)
        throws InterruptedException {
        Semaphore permits = new Semaphore(concurrency);
        int issued = 0;
        try {
            while (issued < count && !deadline.expired()) {
                permits.acquire();
                CompletableFuture<?> future;
                try {
                    future = task.apply(issued);
                } catch (RuntimeException e) {
                    permits.release();
                    throw e;
                }
                issued++;
                future.whenComplete((result, error) -> permits.release());
            }
        } finally {
            permits.acquireUninterruptibly(concurrency);
            permits.release(concurrency);
        }
        return issued;
    }
}
