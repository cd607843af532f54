package dev.hangar.bench.lab;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
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
        TreeMap<Integer, LatencyStats> bySecond = new TreeMap<>();
        List<Long> successes = new ArrayList<>();
        long killAfter = duration.toNanos() / 3;
        long[] killedAt = {-1};
        Thread killer = Thread.ofPlatform().name("lab-killer").start(() -> {
            try {
                TimeUnit.NANOSECONDS.sleep(killAfter);
            } catch (InterruptedException e) {
                return;
            }
            cluster.kill(victim);
            killedAt[0] = killAfter;
        });
        long started = System.nanoTime();
        ClosedLoop.run(c -> s3.get(c % s3.size()), bucket, clients, duration, "failover", (at, took, ok) -> {
            synchronized (bySecond) {
                LatencyStats second = bySecond.computeIfAbsent((int) TimeUnit.NANOSECONDS.toSeconds(at), any -> new LatencyStats());
                if (ok) {
                    second.record(took);
                    successes.add(at);
                } else {
                    second.error();
                }
            }
        });
        killer.join();
        double killedAtSecond = (killedAt[0] >= 0 ? killedAt[0] : System.nanoTime() - started) / 1e9;
        List<Second> seconds = new ArrayList<>();
        long errors = 0;
        synchronized (bySecond) {
            for (var entry : bySecond.entrySet()) {
                LatencyStats stats = entry.getValue();
                errors += stats.errors();
                seconds.add(new Second(entry.getKey(), stats.requests(), stats.errors(), stats.percentileMs(50),
                        stats.percentileMs(99), stats.maxMs()));
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
            String leadership = cluster.leadership(node);
            int led = leadership.contains("/") ? Integer.parseInt(leadership.substring(0, leadership.indexOf('/'))) : 0;
            if (led > most) {
                most = led;
                victim = node;
            }
        }
        return victim;
    }
}
