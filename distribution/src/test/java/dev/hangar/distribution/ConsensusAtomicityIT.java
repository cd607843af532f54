package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.ConsensusGroup;
import dev.hangar.distribution.ServerCluster.Member;
import dev.hangar.distribution.support.PackagedServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.ObjectLockEnabled;
import software.amazon.awssdk.services.s3.model.ObjectLockLegalHoldStatus;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * What needs commands serialised across coordinators, raced through the three nodes of a cluster at once, in
 * the Raft mode and in the leaderless mode: three {@code If-None-Match: *} PUTs of a fresh key, three {@code
 * If-Match} overwrites conditioned on one ETag, a legal hold racing a delete of the same version. Each request of
 * a race goes through a different node's S3 endpoint, and the requests start together (a barrier).
 *
 * <p>The Raft mode orders every command of a bucket in one log, checked when it is applied: exactly one
 * conditional write wins, and a hold and a delete never both succeed. The leaderless mode checks each command
 * against its coordinator's quorum read, so several conditional writes may win and a delete may take a held
 * version with it (docs/cluster.md, metadata commands and replication): there the test asserts only what is
 * certain (one winner at least, no other status than 200 and 412) and prints how often the race was lost, on one
 * line per mode ({@code ConsensusAtomicityIT summary ...}), the figure docs/cluster.md quotes.
 *
 * <p>The nodes are {@link DedicatedServer}s in this JVM ({@link ServerCluster}, {@code storage.sync=none}).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ConsensusAtomicityIT {
    private static final String ACCESS_KEY = "HANGARATOMICITYKEY01";
    private static final String SECRET_KEY = "hangar-atomicity-secret-0123456789abcdefg";
    private static final int CONDITIONAL_ROUNDS = 100;
    private static final int HOLD_ROUNDS = 50;
    /** How long one round's three requests may take together, on a loaded machine. */
    private static final long ROUND_SECONDS = 60;

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    class Raft extends Races {
        Raft() {
            super("raft", true, "cluster.replication=raft", "cluster.raft.port=0");
        }
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    class Leaderless extends Races {
        Leaderless() {
            super("leaderless", false, "cluster.replication=leaderless");
        }
    }

    /** The three races on one 3-node cluster of one mode. */
    abstract static class Races {
        private final String mode;
        /** Whether the mode orders commands across coordinators: then the races have exactly one winner. */
        private final boolean serialised;
        private final String[] settings;
        private final Map<String, String> summary = new LinkedHashMap<>();

        private Path dir;
        private ServerCluster cluster;
        private List<S3Client> nodes;
        private ExecutorService executor;

        Races(String mode, boolean serialised, String... settings) {
            this.mode = mode;
            this.serialised = serialised;
            this.settings = settings;
        }

        @BeforeAll
        void startCluster() throws IOException {
            Path work = Files.createDirectories(Path.of("target", "consensus-atomicity-it").toAbsolutePath());
            dir = Files.createTempDirectory(work, mode + "-");
            cluster = ServerCluster.start(dir, ACCESS_KEY, SECRET_KEY, List.of(Member.storage("n1", "zone-a"),
                    Member.storage("n2", "zone-b"), Member.storage("n3", "zone-c")), settings);
            if (serialised) {
                // Every node is a member of every group (3 nodes, factor 3); each must know a leader.
                ServerCluster.await(() -> cluster.servers().stream().allMatch(server -> {
                    List<ConsensusGroup> groups;
                    try {
                        groups = server.node().replication().groups();
                    } catch (RuntimeException starting) {
                        // While a group's Ratis division starts, groups() fails (its role is still null, or its
                        // state machine updater not yet made): not a leader yet.
                        return false;
                    }
                    return groups.size() == 3 && groups.stream().allMatch(ConsensusGroup::hasLeader);
                }), "3 Raft groups with a leader known on every node");
            }
            nodes = List.of(cluster.server("n1").s3(), cluster.server("n2").s3(), cluster.server("n3").s3());
            executor = Executors.newFixedThreadPool(3);
        }

        @AfterAll
        void stopCluster() throws IOException {
            System.out.println("ConsensusAtomicityIT summary " + mode + ": " + summary);
            if (executor != null) {
                executor.shutdownNow();
            }
            if (cluster != null) {
                cluster.close();
            }
            if (dir != null) {
                PackagedServer.deleteRecursively(dir);
            }
        }

        @Test
        @Order(1)
        void ifNoneMatchStarHasOneWinnerAmongThreeNodes() throws Exception {
            String bucket = "if-none-match";
            nodes.get(0).createBucket(b -> b.bucket(bucket));
            awaitBucketEverywhere(bucket);
            int multipleWinners = 0;
            int maxWinners = 0;
            List<String> violations = new ArrayList<>();
            for (int round = 0; round < CONDITIONAL_ROUNDS; round++) {
                String key = "fresh-" + round;
                int r = round;
                List<Integer> statuses = race(round, node -> () -> status(() -> nodes.get(node).putObject(
                        p -> p.bucket(bucket).key(key).ifNoneMatch("*"),
                        RequestBody.fromString(body(r, node)))));
                int winners = count(statuses, 200);
                String what = "If-None-Match round " + round + " (" + mode + "), statuses by node n1..n3 " + statuses;
                maxWinners = Math.max(maxWinners, winners);
                if (winners > 1) {
                    multipleWinners++;
                }
                if (statuses.stream().anyMatch(status -> status != 200 && status != 412)) {
                    violations.add(what + ": a status other than 200 and 412 (PreconditionFailed)");
                } else if (winners == 0) {
                    violations.add(what + ": no winner");
                } else if (serialised && winners != 1) {
                    violations.add(what + ": " + winners + " winners");
                }
                checkStoredIsAWinner(bucket, key, r, statuses, what, violations);
            }
            summary.put("If-None-Match", CONDITIONAL_ROUNDS + " rounds, " + multipleWinners
                    + " with more than one 200 (at most " + maxWinners + ")");
            System.out.println("ConsensusAtomicityIT " + mode + " If-None-Match: " + summary.get("If-None-Match"));
            assertThat(violations).as("rounds that broke the rule of the %s mode", mode).isEmpty();
        }

        @Test
        @Order(2)
        void ifMatchOverwritesOfOneVersionHaveOneWinnerAmongThreeNodes() throws Exception {
            String bucket = "if-match";
            nodes.get(1).createBucket(b -> b.bucket(bucket));
            awaitBucketEverywhere(bucket);
            int multipleWinners = 0;
            int maxWinners = 0;
            List<String> violations = new ArrayList<>();
            for (int round = 0; round < CONDITIONAL_ROUNDS; round++) {
                String key = "existing-" + round;
                int r = round;
                String etag = nodes.get(round % 3).putObject(p -> p.bucket(bucket).key(key),
                        RequestBody.fromString("original of round " + round)).eTag();
                List<Integer> statuses = race(round, node -> () -> status(() -> nodes.get(node).putObject(
                        p -> p.bucket(bucket).key(key).ifMatch(etag), RequestBody.fromString(body(r, node)))));
                int winners = count(statuses, 200);
                String what = "If-Match round " + round + " (" + mode + "), statuses by node n1..n3 " + statuses;
                maxWinners = Math.max(maxWinners, winners);
                if (winners > 1) {
                    multipleWinners++;
                }
                if (statuses.stream().anyMatch(status -> status != 200 && status != 412)) {
                    violations.add(what + ": a status other than 200 and 412 (PreconditionFailed)");
                } else if (winners == 0) {
                    violations.add(what + ": no winner");
                } else if (serialised && winners != 1) {
                    violations.add(what + ": " + winners + " winners");
                }
                checkStoredIsAWinner(bucket, key, r, statuses, what, violations);
            }
            summary.put("If-Match", CONDITIONAL_ROUNDS + " rounds, " + multipleWinners
                    + " with more than one 200 (at most " + maxWinners + ")");
            System.out.println("ConsensusAtomicityIT " + mode + " If-Match: " + summary.get("If-Match"));
            assertThat(violations).as("rounds that broke the rule of the %s mode", mode).isEmpty();
        }

        /**
         * A version put, then at once a legal hold ON through one node and a DELETE of that version through
         * another. Exactly one of them may take effect: the delete (the hold then finds no version, 404
         * NoSuchVersion) or the hold (the delete is refused, 403 AccessDenied, and the version stays, held).
         */
        @Test
        @Order(3)
        void aLegalHoldRacingADeleteThroughAnotherNodeIsNeverLost() throws Exception {
            String bucket = "locked";
            nodes.get(2).createBucket(b -> b.bucket(bucket).objectLockEnabledForBucket(true));
            ServerCluster.await(() -> nodes.stream().allMatch(s3 -> {
                try {
                    return s3.getBucketVersioning(v -> v.bucket(bucket)).status() == BucketVersioningStatus.ENABLED
                            && s3.getObjectLockConfiguration(c -> c.bucket(bucket)).objectLockConfiguration()
                                    .objectLockEnabled() == ObjectLockEnabled.ENABLED;
                } catch (S3Exception notYet) {
                    return false;
                }
            }), "bucket " + bucket + " with Object Lock as every node sees it");
            int holdWon = 0;
            int deleteWon = 0;
            int holdLost = 0;
            int holdLostVersionGone = 0;
            int other = 0;
            List<String> violations = new ArrayList<>();
            for (int round = 0; round < HOLD_ROUNDS; round++) {
                String key = "raced-" + round;
                S3Client writer = nodes.get(round % 3);
                S3Client holder = nodes.get((round + 1) % 3);
                S3Client deleter = nodes.get((round + 2) % 3);
                String version = writer.putObject(p -> p.bucket(bucket).key(key), RequestBody.fromString(key))
                        .versionId();
                List<Integer> statuses = race(round, index -> index == 0
                        ? () -> status(() -> holder.putObjectLegalHold(h -> h.bucket(bucket).key(key).versionId(version)
                                .legalHold(l -> l.status(ObjectLockLegalHoldStatus.ON))))
                        : () -> status(() -> deleter.deleteObject(d -> d.bucket(bucket).key(key).versionId(version))),
                        2);
                int held = statuses.get(0);
                int deleted = statuses.get(1);
                // Through the node that wrote it, the one of the three that took part in neither request.
                int head = status(() -> writer.headObject(h -> h.bucket(bucket).key(key).versionId(version)));
                boolean present = head == 200;
                boolean holdOn = present && writer.getObjectLegalHold(g -> g.bucket(bucket).key(key)
                        .versionId(version)).legalHold().status() == ObjectLockLegalHoldStatus.ON;
                String what = "legal hold round " + round + " (" + mode + "): hold " + held + ", delete " + deleted
                        + ", HEAD of the version " + head + (present ? ", hold " + (holdOn ? "ON" : "OFF") : "");
                if (held == 200 && deleted == 403 && present && holdOn) {
                    holdWon++;
                } else if (deleted == 200 && held == 404 && !present) {
                    deleteWon++;
                } else if (held == 200 && deleted == 200) {
                    holdLost++;
                    if (!present) {
                        holdLostVersionGone++;
                    }
                    System.out.println("ConsensusAtomicityIT " + what + ": both succeeded");
                    if (serialised) {
                        violations.add(what + ": both succeeded");
                    }
                } else {
                    other++;
                    violations.add(what + ": not one of the allowed outcomes");
                }
                if (present && holdOn) {
                    // Lift it, so that nothing in the bucket stays locked.
                    holder.putObjectLegalHold(h -> h.bucket(bucket).key(key).versionId(version)
                            .legalHold(l -> l.status(ObjectLockLegalHoldStatus.OFF)));
                }
            }
            summary.put("legal hold vs delete", HOLD_ROUNDS + " rounds: hold won " + holdWon + ", delete won "
                    + deleteWon + ", both succeeded (hold lost) " + holdLost + " (version gone in " + holdLostVersionGone
                    + "), other " + other);
            System.out.println("ConsensusAtomicityIT " + mode + " legal hold vs delete: "
                    + summary.get("legal hold vs delete"));
            assertThat(violations).as("rounds that broke the rule of the %s mode", mode).isEmpty();
        }

        /** Runs one request per node, n1 to n3, started together; returns their statuses in that order. */
        private List<Integer> race(int round, java.util.function.IntFunction<Callable<Integer>> request)
                throws InterruptedException {
            return race(round, request, 3);
        }

        private List<Integer> race(int round, java.util.function.IntFunction<Callable<Integer>> request, int parties)
                throws InterruptedException {
            CyclicBarrier barrier = new CyclicBarrier(parties);
            List<Future<Integer>> futures = new ArrayList<>();
            for (int i = 0; i < parties; i++) {
                Callable<Integer> call = request.apply(i);
                futures.add(executor.submit(() -> {
                    barrier.await(ROUND_SECONDS, TimeUnit.SECONDS);
                    return call.call();
                }));
            }
            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < parties; i++) {
                try {
                    statuses.add(futures.get(i).get(ROUND_SECONDS, TimeUnit.SECONDS));
                } catch (TimeoutException e) {
                    futures.forEach(future -> future.cancel(true));
                    throw new AssertionError("round " + round + " (" + mode + "): request " + i + " did not answer within "
                            + ROUND_SECONDS + " s", e);
                } catch (ExecutionException e) {
                    throw new AssertionError("round " + round + " (" + mode + "): request " + i + " failed outside S3",
                            e.getCause());
                }
            }
            return statuses;
        }

        /**
         * Reads the key through every node: each must return the body of a request that got 200 (in the Raft
         * mode, the one winner's); returns it, or null after noting a violation.
         */
        private String checkStoredIsAWinner(String bucket, String key, int round, List<Integer> statuses, String what,
                List<String> violations) {
            List<String> winners = new ArrayList<>();
            for (int node = 0; node < 3; node++) {
                if (statuses.get(node) == 200) {
                    winners.add(body(round, node));
                }
            }
            String first = null;
            for (int node = 0; node < 3; node++) {
                int n = node;
                String stored;
                try {
                    stored = nodes.get(n).getObjectAsBytes(g -> g.bucket(bucket).key(key)).asString(StandardCharsets.UTF_8);
                } catch (S3Exception e) {
                    violations.add(what + ": GET through n" + (n + 1) + " failed: " + e.getMessage());
                    return null;
                }
                if (!winners.contains(stored)) {
                    violations.add(what + ": GET through n" + (n + 1) + " returned '" + stored
                            + "', the body of no request that got 200 " + winners);
                    return null;
                }
                if (first != null && !first.equals(stored)) {
                    violations.add(what + ": n1 and n" + (n + 1) + " return different bodies: '" + first + "', '"
                            + stored + "'");
                    return null;
                }
                first = stored;
            }
            return first;
        }

        private void awaitBucketEverywhere(String bucket) {
            ServerCluster.await(() -> nodes.stream().allMatch(s3 -> status(() -> s3.headBucket(h -> h.bucket(bucket)))
                    == 200), "bucket " + bucket + " seen by every node");
        }
    }

    private static String body(int round, int node) {
        return "round " + round + " through n" + (node + 1);
    }

    private static int count(List<Integer> statuses, int status) {
        return (int) statuses.stream().filter(s -> s == status).count();
    }

    /**
     * 200 if the call succeeded, else the status of the S3 error it got; negated when a 412 is not
     * PreconditionFailed or a 403 not AccessDenied, so that it matches no expected outcome.
     */
    private static int status(Runnable call) {
        try {
            call.run();
            return 200;
        } catch (S3Exception e) {
            String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
            if ((e.statusCode() == 412 && !"PreconditionFailed".equals(code))
                    || (e.statusCode() == 403 && !"AccessDenied".equals(code))) {
                System.out.println("ConsensusAtomicityIT unexpected error code: " + e);
                return -e.statusCode();
            }
            return e.statusCode();
        }
    }
}
