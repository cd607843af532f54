package dev.hangar.bench.lab;

import dev.hangar.bench.load.OperationStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Closed-loop load: {@code clients} threads, each with a coordinator of its own (the nodes in turn), each
 * making one request after the other for a fixed time — a PutObject of a new 4 KiB key, then a GetObject of
 * it. Used for throughput, and, with a node killed meanwhile, for failover ({@link Failover}).
 */
final class ClosedLoop {
    static final int OBJECT_BYTES = 4096;

    /** A run's figures: requests answered and failed, and their latencies. */
    record Result(int clients, Duration elapsed, OperationStats latency) {
        double requestsPerSecond() {
            return latency.count() / (elapsed.toNanos() / 1e9);
        }
    }

    /** Each request as it ended: when (ns since the start), how long it took, and why it failed (null: it did not). */
    interface Listener {
        void ended(long atNanos, long tookNanos, @Nullable RuntimeException failure);
    }

    private ClosedLoop() {
    }

    static Result run(IntFunction<S3Client> clientOf, String bucket, int clients, Duration duration, String prefix,
            Listener listener) throws InterruptedException {
        OperationStats stats = new OperationStats("put-get");
        AtomicLong sequence = new AtomicLong();
        byte[] body = new byte[OBJECT_BYTES];
        long started = System.nanoTime();
        long end = started + duration.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            S3Client s3 = clientOf.apply(c);
            threads.add(Thread.ofPlatform().name("lab-client-" + c).start(() -> {
                while (System.nanoTime() < end) {
                    String key = prefix + "/" + sequence.incrementAndGet();
                    boolean written = request(stats, listener, started,
                            () -> s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromBytes(body)));
                    if (written && System.nanoTime() < end) {
                        request(stats, listener, started, () -> s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)));
                    }
                }
            }));
        }
        for (Thread thread : threads) {
            // A request may take up to the client's call timeout past the end.
            if (!thread.join(duration.plusMinutes(2))) {
                throw new IllegalStateException(thread.getName() + " did not finish");
            }
        }
        return new Result(clients, Duration.ofNanos(System.nanoTime() - started), stats);
    }

    private static boolean request(OperationStats stats, Listener listener, long started, Runnable request) {
        long begun = System.nanoTime();
        RuntimeException failure = null;
        try {
            request.run();
        } catch (RuntimeException e) {
            failure = e;
        }
        long now = System.nanoTime();
        boolean ok = failure == null;
        if (failure == null) {
            stats.successAfter(now - begun, 0);
        } else {
            stats.failure(failure);
            // A node that refuses at once must not turn the loop into a spin.
            sleepQuietly(TimeUnit.MILLISECONDS.toNanos(10));
        }
        listener.ended(now - started, now - begun, failure);
        return ok;
    }

    private static void sleepQuietly(long nanos) {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
