package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.PackagedServer;
import dev.hangar.distribution.support.RawS3;
import dev.hangar.distribution.support.S3Clients;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import tools.jackson.databind.JsonNode;

/**
 * A Raft group's leader killed with SIGKILL under a steady load of small PUTs through all three nodes of a
 * cluster of packaged servers (separate processes, {@code storage.sync=always}, the default): writes resume on the
 * two survivors once they elect a new leader, the killed node comes back on its data folder and its RPC and Raft
 * ports and catches up, and every acknowledged PUT then reads back, whole, through every node.
 *
 * <p>The buckets are spread over the three groups (each bucket's group is found by watching which group's commit
 * index a few PUTs into it raise), so the killed leader's group holds some. The failover gap of a bucket is the
 * time from the kill to the first acknowledged PUT into it that was sent after the kill; the largest is the gap of
 * the killed leader's group, printed with the Raft timeouts behind it ({@code RaftFailoverIT gap ...}).
 *
 * <p>{@code -Dhangar.raft-failover.expected-rtt=20ms} sets {@code HANGAR_CLUSTER_RAFT_EXPECTED_RTT} (default: the
 * server's own, 100 ms, election timeouts of 1 to 2 s).
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class RaftFailoverIT {
    private static final String ACCESS_KEY = "HANGARRAFTFAILOVER01";
    private static final String SECRET_KEY = "hangar-raft-failover-secret-0123456789ab";
    private static final String HEAP = "384m";
    private static final int NODES = 3;
    private static final int WRITERS = 6;
    /** A writer's pause between two PUTs: a steady load, not a saturating one. */
    private static final Duration PACE = Duration.ofMillis(10);
    /** Buckets until every group holds at least this many. */
    private static final int BUCKETS_PER_GROUP = 2;
    private static final int MAX_BUCKETS = 30;
    private static final Duration LOAD_BEFORE_KILL = Duration.ofSeconds(10);
    /** The bound on the failover gap: generous, on a loaded 2-core machine. */
    private static final Duration RESUME_BOUND = Duration.ofSeconds(60);
    private static final Duration LOAD_AFTER_RESUME = Duration.ofSeconds(5);
    private static final Duration LOAD_AFTER_RETURN = Duration.ofSeconds(5);
    private static final Duration FORMATION = Duration.ofSeconds(120);
    private static final Duration CATCH_UP = Duration.ofSeconds(120);
    /** A client call's limit: longer than the server's own 30 s deadline of a command waiting for its group. */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(45);

    private final String expectedRtt = System.getProperty("hangar.raft-failover.expected-rtt", "");
    private final HttpClient http = RawS3.newHttpClient();
    private final List<PackagedServer> everStarted = Collections.synchronizedList(new ArrayList<>());

    private final String[] ids = {"n1", "n2", "n3"};
    private final SplittableRandom ports = new SplittableRandom();
    private final int[] rpcPorts = new int[NODES];
    private final int[] raftPorts = new int[NODES];
    private final Path[] dataDirs = new Path[NODES];
    private final PackagedServer[] servers = new PackagedServer[NODES];
    private final AtomicReferenceArray<S3Client> clients = new AtomicReferenceArray<>(NODES);
    private final AdminApi[] admins = new AdminApi[NODES];

    /** The nodes the load goes through. */
    private final List<Integer> live = new CopyOnWriteArrayList<>();
    /** Acknowledged PUTs: bucket/key. */
    private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    /** Every PUT sent, acknowledged or not: bucket/key. */
    private final Set<String> attempted = ConcurrentHashMap.newKeySet();
    private final Map<String, AtomicInteger> failures = new ConcurrentHashMap<>();
    private final Map<String, String> lastFailure = new ConcurrentHashMap<>();
    /** Per bucket, nanoTime when its first PUT sent after the kill was acknowledged. */
    private final Map<String, Long> firstAfterKill = new ConcurrentHashMap<>();
    private volatile long killedAt = Long.MAX_VALUE;

    @Test
    void writesResumeAfterALeaderIsKilledAndEveryAcknowledgedPutReadsBackThroughEveryNode() throws Exception {
        long testStart = System.nanoTime();
        Path work = Files.createDirectories(Path.of("target", "raft-failover-it").toAbsolutePath());
        Path dir = Files.createTempDirectory(work, "cluster-");
        Thread reaper = new Thread(() -> everStarted.forEach(PackagedServer::close), "raft-failover-it-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        boolean passed = false;
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS, runnable -> {
            Thread thread = new Thread(runnable, "raft-failover-writer");
            thread.setDaemon(true);
            return thread;
        });
        AtomicBoolean stop = new AtomicBoolean();
        try {
            for (int i = 0; i < NODES; i++) {
                rpcPorts[i] = freePort();
                raftPorts[i] = freePort();
                dataDirs[i] = Files.createDirectories(dir.resolve(ids[i]).resolve("data"));
            }
            for (int i = 0; i < NODES; i++) {
                start(i, "start");
            }
            awaitFormed();
            System.out.printf("RaftFailoverIT: 3 nodes formed in %d s%n", seconds(System.nanoTime() - testStart));

            Map<String, String> groupOfBucket = spreadBuckets();
            List<String> buckets = List.copyOf(groupOfBucket.keySet());
            System.out.println("RaftFailoverIT buckets by group: " + byGroup(groupOfBucket));

            // The steady load, through every node.
            for (int i = 0; i < NODES; i++) {
                live.add(i);
            }
            AtomicLong puts = new AtomicLong();
            List<Future<?>> running = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                running.add(writers.submit(() -> write(writer, buckets, stop, puts)));
            }
            Thread.sleep(LOAD_BEFORE_KILL.toMillis());
            long putsBeforeKill = puts.get();
            assertThat(putsBeforeKill).as("PUTs acknowledged before the kill; failures: %s, last: %s", failures,
                    lastFailure).isPositive();
            assertThat(failures).as("PUT failures before the kill (all nodes up); last: %s", lastFailure).isEmpty();

            // The leader of the group of the first bucket, as the cluster sees it.
            String victimGroup = groupOfBucket.get(buckets.getFirst());
            String leaderId = leaderOf(victimGroup);
            int victim = Arrays.asList(ids).indexOf(leaderId);
            assertThat(victim).as("the leader %s of group %s is a node", leaderId, victimGroup).isNotNegative();
            Map<String, String> leadersBefore = leaders(survivorOf(victim));
            Set<String> killedGroups = new HashSet<>();
            leadersBefore.forEach((group, leader) -> {
                if (leaderId.equals(leader)) {
                    killedGroups.add(group);
                }
            });
            List<String> killedBuckets = buckets.stream().filter(b -> killedGroups.contains(groupOfBucket.get(b))).toList();
            System.out.printf("RaftFailoverIT: %d PUTs acknowledged in %d s; killing %s, leader of %s (buckets %s)%n",
                    putsBeforeKill, LOAD_BEFORE_KILL.toSeconds(), leaderId, killedGroups, killedBuckets);

            String loadAtKill = loadAverage();
            live.remove(Integer.valueOf(victim));
            killedAt = System.nanoTime();
            servers[victim].kill();
            long killReturned = System.nanoTime();
            Map<String, Integer> failuresBeforeKill = snapshot(failures);

            await(() -> firstAfterKill.keySet().containsAll(buckets), RESUME_BOUND.plusNanos(killReturned - killedAt),
                    () -> "writes into every bucket resumed after the kill of " + leaderId + "; buckets without an"
                            + " acknowledged PUT sent after it: " + buckets.stream()
                                    .filter(b -> !firstAfterKill.containsKey(b)).toList()
                            + "; failures " + failures + "; last failures " + lastFailure);
            Map<String, Long> gaps = new TreeMap<>();
            firstAfterKill.forEach((bucket, at) -> gaps.put(bucket, TimeUnit.NANOSECONDS.toMillis(at - killedAt)));
            long gap = Collections.max(gaps.values());
            long killedGroupGap = killedBuckets.stream().mapToLong(gaps::get).max().orElse(-1);
            long otherGroupsGap = buckets.stream().filter(b -> !killedBuckets.contains(b)).mapToLong(gaps::get).max()
                    .orElse(-1);
            Thread.sleep(LOAD_AFTER_RESUME.toMillis());
            Map<String, String> leadersAfter = leaders(survivorOf(victim));
            Map<String, Integer> failoverFailures = difference(snapshot(failures), failuresBeforeKill);
            System.out.printf("RaftFailoverIT gap: %d ms (max over buckets, kill to the first acknowledged PUT sent after"
                            + " it); killed leader's group %s: %d ms; other groups: %d ms; per bucket %s; leaders before"
                            + " %s, after %s; PUT failures during the failover %s; expected RTT %s (election timeout"
                            + " %s), Raft client attempt 3 s, command deadline 30 s; load average at the kill %s%n",
                    gap, killedGroups, killedGroupGap, otherGroupsGap, gaps, leadersBefore, leadersAfter,
                    failoverFailures, expectedRtt.isEmpty() ? "100ms (default)" : expectedRtt, electionTimeouts(),
                    loadAtKill);
            assertThat(leadersAfter.values()).as("leaders after the failover").doesNotContain(leaderId);

            // The killed node comes back on its data folder, RPC and Raft ports.
            long restartAt = System.nanoTime();
            try {
                start(victim, "restart");
            } catch (AssertionError slow) {
                // PackagedServer gives a start 60 s to listen; on a loaded machine a start under load can take
                // longer. It was killed again (a crash during recovery): one more start, on the same folder.
                System.out.println("RaftFailoverIT: the restart of " + leaderId + " did not listen in time, starting it"
                        + " once more: " + slow.getMessage().lines().findFirst().orElse(""));
                start(victim, "restart-again");
            }
            AssertionError notBack = null;
            try {
                Map<String, Long> target = awaitGroupsThenCommitIndexOfOthers(victim);
                long cameBack = System.nanoTime();
                await(() -> caughtUp(victim, target), CATCH_UP,
                        () -> leaderId + " applied up to the commit indexes the others had when it came back " + target
                                + "; it shows " + groupsText(victim));
                long caughtUp = System.nanoTime();
                System.out.printf("RaftFailoverIT: %s restarted, listening with its groups up in %d ms, caught up"
                        + " with %s in %d ms more%n", leaderId, TimeUnit.NANOSECONDS.toMillis(cameBack - restartAt), target,
                        TimeUnit.NANOSECONDS.toMillis(caughtUp - cameBack));
                live.add(victim);
                Thread.sleep(LOAD_AFTER_RETURN.toMillis());
            } catch (AssertionError e) {
                notBack = e;
            }

            stop.set(true);
            for (Future<?> writer : running) {
                try {
                    writer.get(CALL_TIMEOUT.toSeconds() + 30, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    throw new AssertionError("a writer did not stop", e);
                } catch (ExecutionException e) {
                    throw new AssertionError("a writer failed outside a request", e.getCause());
                }
            }
            System.out.printf("RaftFailoverIT: load stopped: %d PUTs acknowledged, %d sent; failures by kind %s;"
                    + " leaders at the end %s%n", acknowledged.size(), attempted.size(), failures,
                    leaders(survivorOf(victim)));

            if (notBack != null) {
                // The survivors must still hold every acknowledged PUT: checked, so that the failure says whether
                // anything was lost besides the returned node.
                List<Integer> survivors = new ArrayList<>(List.of(0, 1, 2));
                survivors.remove(Integer.valueOf(victim));
                String survivorsCheck;
                try {
                    verify(buckets, survivors);
                    survivorsCheck = "every one of the " + acknowledged.size() + " acknowledged PUTs reads back through"
                            + " the two survivors";
                } catch (AssertionError e) {
                    survivorsCheck = "the survivors fail too: " + e.getMessage();
                }
                System.out.println("RaftFailoverIT: " + leaderId + " did not catch up; " + survivorsCheck);
                AssertionError failure = new AssertionError("the restarted " + leaderId + " did not catch up ("
                        + survivorsCheck + "): " + notBack.getMessage() + "\n" + servers[victim].logTail(120));
                failure.addSuppressed(notBack);
                throw failure;
            }
            verify(buckets, List.of(0, 1, 2));
            System.out.printf("RaftFailoverIT: every one of %d acknowledged PUTs read back through each of the 3 nodes;"
                    + " test time %d s; load average %s%n", acknowledged.size(), seconds(System.nanoTime() - testStart),
                    loadAverage());
            assertThat(gap).as("failover gap in ms").isLessThan(RESUME_BOUND.toMillis());
            passed = true;
        } finally {
            stop.set(true);
            writers.shutdownNow();
            for (int i = 0; i < NODES; i++) {
                S3Client client = clients.get(i);
                if (client != null) {
                    client.close();
                }
            }
            if (!passed) {
                for (int i = 0; i < NODES; i++) {
                    if (servers[i] != null) {
                        System.out.println(servers[i].logTail(150));
                    }
                }
            }
            synchronized (everStarted) {
                for (PackagedServer server : everStarted) {
                    if (passed) {
                        server.stop();
                    } else {
                        server.close();
                    }
                }
            }
            Runtime.getRuntime().removeShutdownHook(reaper);
            if (passed) {
                PackagedServer.deleteRecursively(dir);
            } else {
                System.out.println("RaftFailoverIT kept the data folders and logs for inspection: " + dir);
            }
        }
    }

    /** One writer: a PUT of a new key at a time, into the buckets in turn, through the live nodes in turn. */
    private void write(int writer, List<String> buckets, AtomicBoolean stop, AtomicLong puts) {
        long sequence = 0;
        while (!stop.get()) {
            List<Integer> nodes = List.copyOf(live);
            int node = nodes.get((int) ((writer + sequence) % nodes.size()));
            String bucket = buckets.get((int) ((sequence * WRITERS + writer) % buckets.size()));
            String key = "w" + writer + "/" + sequence;
            sequence++;
            byte[] content = content(bucket, key);
            String name = bucket + "/" + key;
            attempted.add(name);
            long sent = System.nanoTime();
            try {
                clients.get(node).putObject(p -> p.bucket(bucket).key(key), RequestBody.fromBytes(content));
                acknowledged.add(name);
                puts.incrementAndGet();
                if (sent > killedAt) {
                    firstAfterKill.putIfAbsent(bucket, System.nanoTime());
                }
            } catch (RuntimeException e) {
                String kind = e instanceof S3Exception s3 ? s3.statusCode() + " " + (s3.awsErrorDetails() == null
                        ? "" : s3.awsErrorDetails().errorCode()) : e.getClass().getSimpleName();
                failures.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
                lastFailure.put(kind, "PUT " + name + " through " + ids[node] + ": " + e.getMessage());
            }
            try {
                Thread.sleep(PACE.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** GETs every acknowledged key through these nodes, and lists every bucket through them. */
    private void verify(List<String> buckets, List<Integer> through) throws InterruptedException {
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        List<String> names = List.copyOf(acknowledged);
        ExecutorService readers = Executors.newFixedThreadPool(6);
        try {
            List<Future<?>> reads = new ArrayList<>();
            for (int node : through) {
                for (int slice = 0; slice < 2; slice++) {
                    int n = node;
                    int s = slice;
                    reads.add(readers.submit(() -> {
                        S3Client s3 = clients.get(n);
                        for (int i = s; i < names.size(); i += 2) {
                            String name = names.get(i);
                            int slash = name.indexOf('/');
                            String bucket = name.substring(0, slash);
                            String key = name.substring(slash + 1);
                            try {
                                byte[] read = s3.getObjectAsBytes(g -> g.bucket(bucket).key(key)).asByteArray();
                                if (!Arrays.equals(read, content(bucket, key))) {
                                    problems.add("GET " + name + " through " + ids[n] + ": " + read.length
                                            + " bytes, not the " + content(bucket, key).length + " acknowledged");
                                }
                            } catch (RuntimeException e) {
                                problems.add("GET " + name + " through " + ids[n] + ": " + e);
                            }
                        }
                    }));
                }
            }
            for (Future<?> read : reads) {
                try {
                    read.get(5, TimeUnit.MINUTES);
                } catch (ExecutionException | TimeoutException e) {
                    throw new AssertionError("reading back the acknowledged keys", e);
                }
            }
        } finally {
            readers.shutdownNow();
        }
        for (String bucket : buckets) {
            Set<String> first = null;
            for (int node : through) {
                Set<String> listed = new HashSet<>();
                try {
                    clients.get(node).listObjectsV2Paginator(l -> l.bucket(bucket)).contents().stream()
                            .map(S3Object::key).forEach(key -> listed.add(bucket + "/" + key));
                } catch (RuntimeException e) {
                    problems.add("listing " + bucket + " through " + ids[node] + ": " + e);
                    continue;
                }
                String prefix = bucket + "/";
                for (String name : acknowledged) {
                    if (name.startsWith(prefix) && !listed.contains(name)) {
                        problems.add("acknowledged " + name + " not listed through " + ids[node]);
                    }
                }
                for (String name : listed) {
                    if (!attempted.contains(name)) {
                        problems.add(name + " listed through " + ids[node] + " was never written");
                    }
                }
                if (first != null && !first.equals(listed)) {
                    problems.add("the listing of " + bucket + " through " + ids[node] + " (" + listed.size()
                            + " keys) differs from " + ids[through.getFirst()] + "'s (" + first.size() + ")");
                }
                if (first == null) {
                    first = listed;
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new AssertionError(problems.size() + " problem(s) reading back " + names.size()
                    + " acknowledged PUTs through " + through.stream().map(n -> ids[n]).toList() + " (first 50):\n  "
                    + String.join("\n  ", problems.subList(0, Math.min(50, problems.size()))));
        }
    }

    /**
     * Creates buckets through the nodes in turn, each followed by a few PUTs, and tells its group by the commit
     * index they raise, until every group holds {@link #BUCKETS_PER_GROUP}. Returns bucket to group.
     */
    private Map<String, String> spreadBuckets() throws InterruptedException {
        Map<String, String> groupOfBucket = new LinkedHashMap<>();
        Set<String> groups = commitIndexes().keySet();
        assertThat(groups).as("Raft groups").hasSize(3);
        int probes = 5;
        for (int b = 0; b < MAX_BUCKETS; b++) {
            Map<String, Integer> counts = new HashMap<>();
            groupOfBucket.values().forEach(group -> counts.merge(group, 1, Integer::sum));
            if (groups.stream().allMatch(group -> counts.getOrDefault(group, 0) >= BUCKETS_PER_GROUP)) {
                break;
            }
            String bucket = "load-" + b;
            Map<String, Long> before = commitIndexes();
            S3Client s3 = clients.get(b % NODES);
            s3.createBucket(c -> c.bucket(bucket));
            for (int p = 0; p < probes; p++) {
                String key = "probe-" + p;
                attempted.add(bucket + "/" + key);
                clients.get((b + p) % NODES).putObject(o -> o.bucket(bucket).key(key),
                        RequestBody.fromBytes(content(bucket, key)));
                acknowledged.add(bucket + "/" + key);
            }
            // Commit indexes reach the followers with the next append or heartbeat.
            String[] found = new String[1];
            await(() -> {
                Map<String, Long> after = commitIndexes();
                List<String> raised = groups.stream().filter(g -> after.get(g) - before.get(g) >= probes + 1).toList();
                if (raised.size() == 1) {
                    found[0] = raised.getFirst();
                    return true;
                }
                return false;
            }, Duration.ofSeconds(30), () -> "the group of bucket " + bucket + ": commit indexes " + before + " then "
                    + commitIndexes());
            groupOfBucket.put(bucket, found[0]);
        }
        Map<String, Integer> counts = new HashMap<>();
        groupOfBucket.values().forEach(group -> counts.merge(group, 1, Integer::sum));
        assertThat(counts).as("buckets per group (%s)", groupOfBucket).hasSize(3);
        return groupOfBucket;
    }

    private static Map<String, List<String>> byGroup(Map<String, String> groupOfBucket) {
        Map<String, List<String>> byGroup = new TreeMap<>();
        groupOfBucket.forEach((bucket, group) -> byGroup.computeIfAbsent(group, g -> new ArrayList<>()).add(bucket));
        return byGroup;
    }

    private void start(int i, String label) throws IOException, InterruptedException {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("HANGAR_ROOT_ACCESS_KEY", ACCESS_KEY);
        environment.put("HANGAR_ROOT_SECRET_KEY", SECRET_KEY);
        environment.put("HANGAR_ADMIN_TOKEN", AdminApi.TOKEN);
        environment.put("HANGAR_CLUSTER_ENABLED", "true");
        environment.put("HANGAR_CLUSTER_NODE_ID", ids[i]);
        environment.put("HANGAR_CLUSTER_ZONE", "zone-" + "abc".charAt(i));
        environment.put("HANGAR_CLUSTER_RPC_BIND_ADDRESS", "127.0.0.1");
        environment.put("HANGAR_CLUSTER_RPC_PORT", Integer.toString(rpcPorts[i]));
        environment.put("HANGAR_CLUSTER_BOOTSTRAP_EXPECT", Integer.toString(NODES));
        List<String> seeds = new ArrayList<>();
        for (int other = 0; other < NODES; other++) {
            if (other != i) {
                seeds.add("127.0.0.1:" + rpcPorts[other]);
            }
        }
        environment.put("HANGAR_CLUSTER_SEEDS", String.join(",", seeds));
        environment.put("HANGAR_CLUSTER_SECRET", ServerCluster.SECRET);
        environment.put("HANGAR_CLUSTER_REPLICATION", "raft");
        environment.put("HANGAR_CLUSTER_RAFT_PORT", Integer.toString(raftPorts[i]));
        if (!expectedRtt.isEmpty()) {
            environment.put("HANGAR_CLUSTER_RAFT_EXPECTED_RTT", expectedRtt);
        }
        PackagedServer server = PackagedServer.start(dataDirs[i], HEAP, environment, ids[i] + "-" + label);
        everStarted.add(server);
        servers[i] = server;
        admins[i] = new AdminApi(URI.create("http://localhost:" + server.managementPort()), http);
        S3Client previous = clients.getAndSet(i, S3Clients.sync(server.endpoint(), ACCESS_KEY, SECRET_KEY, true,
                builder -> builder.overrideConfiguration(o -> o.apiCallTimeout(CALL_TIMEOUT)
                        .retryStrategy(AwsRetryStrategy.doNotRetry()))));
        if (previous != null) {
            previous.close();
        }
    }

    /** Every node answers on its management port, sees the 3 nodes up, and knows a leader of each of 3 groups. */
    private void awaitFormed() throws InterruptedException {
        await(() -> {
            for (int i = 0; i < NODES; i++) {
                JsonNode cluster = cluster(i);
                if (cluster == null || cluster.get("layout").get("version").asLong() < 1) {
                    return false;
                }
                int up = 0;
                for (JsonNode node : cluster.get("nodes")) {
                    if ("up".equals(node.get("state").asString())) {
                        up++;
                    }
                }
                JsonNode groups = cluster.get("groups");
                if (up != NODES || groups.size() != 3) {
                    return false;
                }
                for (JsonNode group : groups) {
                    if (!group.get("member").asBoolean() || group.get("leader").isNull()) {
                        return false;
                    }
                }
            }
            return true;
        }, FORMATION, () -> "3 nodes up with 3 Raft groups, each with a leader, as every node sees it: "
                + Arrays.stream(new int[] {0, 1, 2}).mapToObj(this::groupsText).toList());
    }

    /**
     * Waits until the restarted node shows its groups (members, with a leader), then returns the highest commit
     * index each group has on the other nodes at that moment.
     */
    private Map<String, Long> awaitGroupsThenCommitIndexOfOthers(int returned) throws InterruptedException {
        await(() -> {
            JsonNode cluster = cluster(returned);
            if (cluster == null || cluster.get("groups").size() != 3) {
                return false;
            }
            for (JsonNode group : cluster.get("groups")) {
                if (!group.get("member").asBoolean()) {
                    return false;
                }
            }
            return true;
        }, CATCH_UP, () -> ids[returned] + " back with its 3 groups: " + groupsText(returned));
        Map<String, Long> target = new TreeMap<>();
        for (int i = 0; i < NODES; i++) {
            if (i == returned) {
                continue;
            }
            JsonNode cluster = cluster(i);
            assertThat(cluster).as("/actuator/cluster of %s", ids[i]).isNotNull();
            for (JsonNode group : cluster.get("groups")) {
                target.merge(group.get("id").asString(), group.get("commitIndex").asLong(), Math::max);
            }
        }
        return target;
    }

    private boolean caughtUp(int node, Map<String, Long> target) {
        JsonNode cluster = cluster(node);
        if (cluster == null) {
            return false;
        }
        Map<String, Long> applied = new HashMap<>();
        for (JsonNode group : cluster.get("groups")) {
            applied.put(group.get("id").asString(), group.get("appliedIndex").asLong());
        }
        return target.entrySet().stream().allMatch(e -> applied.getOrDefault(e.getKey(), -1L) >= e.getValue());
    }

    /** The highest commit index of each group over the nodes that answer. */
    private Map<String, Long> commitIndexes() {
        Map<String, Long> indexes = new TreeMap<>();
        for (int i : List.copyOf(live.isEmpty() ? List.of(0, 1, 2) : live)) {
            JsonNode cluster = cluster(i);
            if (cluster != null) {
                for (JsonNode group : cluster.get("groups")) {
                    indexes.merge(group.get("id").asString(), group.get("commitIndex").asLong(), Math::max);
                }
            }
        }
        return indexes;
    }

    /** The leader of a group, as a node that leads it says (a node's view of another's leadership may lag). */
    private String leaderOf(String group) {
        for (int i = 0; i < NODES; i++) {
            JsonNode cluster = cluster(i);
            if (cluster == null) {
                continue;
            }
            for (JsonNode g : cluster.get("groups")) {
                if (g.get("id").asString().equals(group) && "leader".equals(g.get("role").asString())) {
                    return ids[i];
                }
            }
        }
        throw new AssertionError("no node leads group " + group + ": " + groupsText(0));
    }

    /** Group to the leader a node knows. */
    private Map<String, String> leaders(int node) {
        Map<String, String> leaders = new TreeMap<>();
        JsonNode cluster = cluster(node);
        if (cluster != null) {
            for (JsonNode group : cluster.get("groups")) {
                JsonNode leader = group.get("leader");
                leaders.put(group.get("id").asString(), leader == null || leader.isNull() ? "none" : leader.asString());
            }
        }
        return leaders;
    }

    private int survivorOf(int victim) {
        return (victim + 1) % NODES;
    }

    /** A node's /actuator/cluster, or null while it does not answer 200. */
    private @Nullable JsonNode cluster(int node) {
        try {
            AdminApi.Response response = admins[node].get("/actuator/cluster");
            return response.status() == 200 ? response.json() : null;
        } catch (RuntimeException notYet) {
            return null;
        }
    }

    private String groupsText(int node) {
        JsonNode cluster = cluster(node);
        return ids[node] + ": " + (cluster == null ? "(no answer)" : cluster.get("groups").toString());
    }

    private String electionTimeouts() {
        Duration rtt = expectedRtt.isEmpty() ? Duration.ofMillis(100)
                : org.springframework.boot.convert.DurationStyle.detectAndParse(expectedRtt);
        long min = Math.max(150, rtt.toMillis() * 10);
        return min + "–" + 2 * min + " ms";
    }

    /** The bytes of a key: its length (20 B to 4 KiB, inline and packed) and content follow from its name. */
    private static byte[] content(String bucket, String key) {
        String name = bucket + "/" + key;
        SplittableRandom random = new SplittableRandom(name.hashCode() * 0x9E3779B97F4A7C15L);
        byte[] content = new byte[20 + random.nextInt(4096)];
        random.nextBytes(content);
        byte[] prefix = name.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(prefix, 0, content, 0, Math.min(prefix.length, content.length));
        return content;
    }

    private static Map<String, Integer> snapshot(Map<String, AtomicInteger> counts) {
        Map<String, Integer> copy = new TreeMap<>();
        counts.forEach((kind, count) -> copy.put(kind, count.get()));
        return copy;
    }

    private static Map<String, Integer> difference(Map<String, Integer> now, Map<String, Integer> before) {
        Map<String, Integer> difference = new TreeMap<>();
        now.forEach((kind, count) -> {
            int added = count - before.getOrDefault(kind, 0);
            if (added > 0) {
                difference.put(kind, added);
            }
        });
        return difference;
    }

    private static void await(BooleanSupplier condition, Duration limit, java.util.function.Supplier<String> what)
            throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + limit + ": " + what.get());
            }
            Thread.sleep(100);
        }
    }

    /** The machine's load averages (1, 5, 15 min), for the record: other work on it slows everything here. */
    private static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " " + fields[1] + " " + fields[2] + " on " + Runtime.getRuntime().availableProcessors()
                    + " cores";
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static long seconds(long nanos) {
        return TimeUnit.NANOSECONDS.toSeconds(nanos);
    }

    /**
     * A port that is free now and outside the range the kernel hands out to outgoing connections: the RPC and Raft
     * ports are chosen before the nodes start (each node's seeds name the others', and a restart reuses them), and a
     * port from that range can meanwhile become the local end of some connection on a busy machine (it did: "Address
     * already in use").
     */
    private int freePort() throws IOException {
        int low = 32768;
        try {
            low = Integer.parseInt(Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim()
                    .split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            // not Linux: the usual range's start
        }
        int floor = 10_000;
        int span = Math.max(1000, low - floor);
        for (int attempt = 0; attempt < 200; attempt++) {
            int candidate = floor + ports.nextInt(span);
            if (Arrays.stream(rpcPorts).anyMatch(p -> p == candidate)
                    || Arrays.stream(raftPorts).anyMatch(p -> p == candidate)) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket(candidate, 1, java.net.InetAddress.getLoopbackAddress())) {
                return socket.getLocalPort();
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no free port between " + floor + " and " + (floor + span));
    }
}
