package dev.hangar.bench.lab;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
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
    record Result(int clients, Duration elapsed, LatencyStats latency) {
        double requestsPerSecond() {
            return latency.requests() / (elapsed.toNanos() / 1e9);
        }
    }

    /** Each request as it ended: when (ns since the start), how long it took, and whether it succeeded. */
    interface Listener {
        void ended(long atNanos, long tookNanos, boolean ok);
    }

    private ClosedLoop() {
    }

    static Result run(IntFunction<S3Client> clientOf, String bucket, int clients, Duration duration, String prefix,
            Listener listener) throws InterruptedException {
        LatencyStats stats = new LatencyStats();
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

    private static boolean request(LatencyStats stats, Listener listener, long started, Runnable request) {
        long begun = System.nanoTime();
        boolean ok;
        try {
            request.run();
            ok = true;
        } catch (RuntimeException e) {
            ok = false;
        }
        long now = System.nanoTime();
        if (ok) {
            stats.record(now - begun);
        } else {
            stats.error();
            // A node that refuses at once must not turn the loop into a spin.
            sleepQuietly(TimeUnit.MILLISECONDS.toNanos(10));
        }
        listener.ended(now - started, now - begun, ok);
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
