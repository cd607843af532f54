package dev.hangar.bench.lab;

import dev.hangar.bench.load.OperationStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A node killed under load: closed-loop clients ({@link ClosedLoop}) through every other node, the victim
 * killed with SIGKILL a third of the way in, and the requests' latencies and failures per second around it.
 * The victim is a storage node: in the Raft mode the one that leads the most groups, so that their
 * leadership must move; in the leaderless mode the second storage node (any is the same).
 */
final class Failover {
    /** One second of the run: requests that ended in it. */
    record Second(int second, long ok, long errors, double p50Ms, double p99Ms, double maxMs) {}

    /** The run: the victim, when it was killed (s since the start), and every second. */
    record Result(String victim, double killedAtSecond, List<Second> seconds, long errors,
            double longestGapSeconds) {}

    private Failover() {
    }

    static Result run(LabCluster cluster, String bucket, int clients, Duration duration) throws InterruptedException {
        String victim = victim(cluster);
        List<String> coordinators = new ArrayList<>(cluster.ids());
        coordinators.remove(victim);
        List<S3Client> s3 = coordinators.stream().map(cluster::s3).toList();
        TreeMap<Integer, OperationStats> bySecond = new TreeMap<>();
        List<Long> successes = new ArrayList<>();
        long started = System.nanoTime();
        CompletableFuture<Long> killed = new CompletableFuture<>();
        Thread killer = Thread.ofPlatform().name("lab-killer").start(() -> {
            try {
                TimeUnit.NANOSECONDS.sleep(duration.toNanos() / 3);
                cluster.kill(victim);
                killed.complete(System.nanoTime() - started);
            } catch (InterruptedException | RuntimeException e) {
                killed.completeExceptionally(e);
            }
        });
        ClosedLoop.run(c -> s3.get(c % s3.size()), bucket, clients, duration, "failover", (at, took, failure) -> {
            synchronized (bySecond) {
                OperationStats second = bySecond.computeIfAbsent((int) TimeUnit.NANOSECONDS.toSeconds(at),
                        any -> new OperationStats("second"));
                if (failure == null) {
                    second.successAfter(took, 0);
                    successes.add(at);
                } else {
                    second.failure(failure);
                }
            }
        });
        killer.join();
        double killedAtSecond;
        try {
            killedAtSecond = killed.join() / 1e9;
        } catch (CompletionException e) {
            throw new IllegalStateException("could not kill " + victim + ": " + e.getCause(), e.getCause());
        }
        List<Second> seconds = new ArrayList<>();
        long errors = 0;
        synchronized (bySecond) {
            for (var entry : bySecond.entrySet()) {
                OperationStats stats = entry.getValue();
                errors += stats.errors();
                seconds.add(new Second(entry.getKey(), stats.count(), stats.errors(), stats.percentileMillis(50),
                        stats.percentileMillis(99), stats.maxMillis()));
            }
        }
        return new Result(victim, killedAtSecond, seconds, errors, longestGap(successes, duration.toNanos()) / 1e9);
    }

    /**
     * The longest time without a successful request between the start and the end of the run; requests that
     * end after it (the stragglers a client waits for) do not count, or the wait for the last of them would.
     */
    static long longestGap(List<Long> successes, long durationNanos) {
        List<Long> sorted = successes.stream().filter(at -> at <= durationNanos).sorted().toList();
        long previous = 0;
        long longest = 0;
        for (long at : sorted) {
            longest = Math.max(longest, at - previous);
            previous = at;
        }
        return Math.max(longest, durationNanos - previous);
    }

    private static String victim(LabCluster cluster) {
        List<String> storage = cluster.topology().storageIds();
        if (!cluster.replication().equals("raft")) {
            return storage.get(1);
        }
        String victim = storage.get(1);
        int most = -1;
        for (String node : storage) {
            int led = cluster.groupsLed(node);
            if (led > most) {
                most = led;
                victim = node;
            }
        }
        return victim;
    }
}
