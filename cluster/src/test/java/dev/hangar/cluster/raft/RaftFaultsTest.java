package dev.hangar.cluster.raft;

import static dev.hangar.cluster.raft.RaftCluster.faults;
import static dev.hangar.cluster.raft.RaftCluster.id;
import static dev.hangar.cluster.raft.RaftCluster.raft;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.hangar.cluster.Applied;
import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.ConsensusGroup;
import dev.hangar.cluster.RaftSettings;
import dev.hangar.cluster.ReplicationStats;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.MetadataUnavailableException;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Precondition;
import dev.hangar.metadata.command.LockCheck;
import dev.hangar.metadata.command.MetadataCommand;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node's {@code NetworkFaults} on its Raft traffic ({@link RaftFaults}), on three whole nodes in the Raft mode:
 * delays show in the time of commands as the rounds they cost, the rounds metric counts what the routes cost, and a
 * node cut off from the others neither accepts writes nor serves stale reads, then catches up once healed.
 *
 * <p>Times are checked from below only (the machine may be loaded): a delay can only make things slower.
 */
class RaftFaultsTest {
    private static final Logger LOG = Logger.getLogger(RaftFaultsTest.class.getName());
    private static final Instant NOW = Instant.parse("2026-11-26T00:00:00Z");
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    /**
     * A one-way delay {@code d} on every link (RPC and Raft, one configuration): a command through its group's
     * leader costs one round trip (the append), at least {@code 2d}; through a follower two (the forward, then the
     * append), at least {@code 4d}; and every message the hooks held, they held at least {@code d}.
     */
    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aDelayOnEveryLinkShowsInEveryRoundOfACommand() {
        // Elections after 1–2 s of silence: 200 ms round trips must not look like a failed leader.
        RaftSettings settings = new RaftSettings("127.0.0.1", 0, RaftSettings.Reads.LEASE, Duration.ofMillis(100));
        try (RaftCluster cluster = RaftCluster.start(dir, 3, settings)) {
            cluster.awaitPreferredLeaders();
            String bucket = "delayed";
            GroupPlan.Group group = cluster.plan().groupOf(bucket);
            ClusterNode leader = cluster.node(group.preferredLeader());
            ClusterNode follower = cluster.node(group.members().get(1));
            assertThat(leader.replication().submit(createBucket(bucket)).outcome().value()).isTrue();

            List<Duration> leaderBefore = new ArrayList<>();
            List<Duration> followerBefore = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                leaderBefore.add(timed(leader, put(bucket, "before-leader-" + i, "v"), 1));
                followerBefore.add(timed(follower, put(bucket, "before-follower-" + i, "v"), 2));
            }

            Duration delay = Duration.ofMillis(100);
            for (ClusterNode node : cluster.nodes()) {
                for (ClusterNode other : cluster.nodes()) {
                    if (id(node).compareTo(id(other)) < 0) {
                        for (ClusterNode hooked : cluster.nodes()) {
                            faults(hooked).delayBetween(id(node), id(other), delay, Duration.ZERO);
                        }
                    }
                }
            }
            Map<NodeId, RaftFaults.Stats> statsBefore = new LinkedHashMap<>();
            cluster.nodes().forEach(node -> statsBefore.put(id(node), raft(node).faultHook().stats()));

            List<Duration> leaderDelayed = new ArrayList<>();
            List<Duration> followerDelayed = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                leaderDelayed.add(timed(leader, put(bucket, "delayed-leader-" + i, "v"), 1));
                followerDelayed.add(timed(follower, put(bucket, "delayed-follower-" + i, "v"), 2));
            }
            LOG.info(() -> "PutVersion through the leader: " + leaderBefore + " without delay, " + leaderDelayed
                    + " with " + delay + " one way; through a follower: " + followerBefore + ", " + followerDelayed);
            for (Duration took : leaderDelayed) {
                assertThat(took).as("a command through the leader with a one-way delay of %s: one round trip", delay)
                        .isGreaterThanOrEqualTo(delay.multipliedBy(2));
            }
            for (Duration took : followerDelayed) {
                assertThat(took).as("a command through a follower with a one-way delay of %s: two round trips", delay)
                        .isGreaterThanOrEqualTo(delay.multipliedBy(4));
            }
            for (ClusterNode node : cluster.nodes()) {
                RaftFaults.Stats stats = raft(node).faultHook().stats();
                assertThat(stats.delayed()).as("messages %s's hook delivered late", id(node))
                        .isGreaterThan(statsBefore.get(id(node)).delayed());
                assertThat(stats.dropped()).as("messages %s's hook dropped", id(node)).isZero();
                assertThat(Duration.ofNanos(stats.shortestLagNanos()))
                        .as("the shortest time %s's hook held a message", id(node)).isGreaterThanOrEqualTo(delay);
            }
            // The values went through: the delays lost nothing.
            assertThat(follower.metadata().getObject(bucket, "delayed-leader-2")).isPresent();
            assertThat(leader.metadata().getObject(bucket, "delayed-follower-2")).isPresent();
        }
    }

    /** Lease reads: a read on the leader costs no round, on a follower one (ReadIndex). */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void roundsOfCommandsAndReadsInTheLeaseMode() {
        checkRounds(RaftSettings.Reads.LEASE, 0);
    }

    /** ReadIndex reads: a read on the leader costs a round (it confirms it leads), on a follower one. */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void roundsOfCommandsAndReadsInTheReadIndexMode() {
        checkRounds(RaftSettings.Reads.READ_INDEX, 1);
    }

    private void checkRounds(RaftSettings.Reads reads, int leaderReadRounds) {
        RaftSettings settings = new RaftSettings("127.0.0.1", 0, reads, Duration.ofMillis(100));
        try (RaftCluster cluster = RaftCluster.start(dir, 3, settings)) {
            cluster.awaitPreferredLeaders();
            String bucket = "counted";
            GroupPlan.Group group = cluster.plan().groupOf(bucket);
            ClusterNode leader = cluster.node(group.preferredLeader());
            ClusterNode follower = cluster.node(group.members().get(1));
            assertThat(leader.replication().groups()).filteredOn(seen -> seen.id().equals(group.id().toString()))
                    .extracting(ConsensusGroup::role).containsExactly("leader");

            Counted create = new Counted(leader, "CreateBucket", false);
            Applied<Boolean> created = leader.replication().submit(createBucket(bucket));
            assertThat(created.outcome().value()).isTrue();
            // A settings change: the append, then the watch until every member has it committed.
            assertThat(created.rounds()).as("CreateBucket through the leader").isEqualTo(2);
            create.assertDelta(1, 2);

            Counted putOnLeader = new Counted(leader, "PutVersion", false);
            Applied<?> onLeader = leader.replication().submit(put(bucket, "a", "through the leader"));
            assertThat(onLeader.rounds()).as("PutVersion through the leader").isEqualTo(1);
            putOnLeader.assertDelta(1, 1);

            Counted putOnFollower = new Counted(follower, "PutVersion", false);
            Applied<?> onFollower = follower.replication().submit(put(bucket, "b", "through a follower"));
            assertThat(onFollower.rounds()).as("PutVersion through a follower").isEqualTo(2);
            putOnFollower.assertDelta(1, 2);

            Counted readOnLeader = new Counted(leader, "getObject", true);
            assertThat(leader.metadata().getObject(bucket, "b")).as("read through the leader").isPresent();
            readOnLeader.assertDelta(1, leaderReadRounds);

            Counted readOnFollower = new Counted(follower, "getObject", true);
            assertThat(follower.metadata().getObject(bucket, "a")).as("read through a follower").isPresent();
            readOnFollower.assertDelta(1, 1);
        }
    }

    /**
     * One node cut off from the two others, on every node's hook: once the two have a leader for every group, a
     * write through the cut node fails with {@code MetadataUnavailableException} within the request deadline, a
     * write through the majority succeeds, and a (lease) read through the cut node fails rather than answer with
     * what it held before; healed, the cut node reads the majority's writes, and its refused writes are nowhere.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void aNodeCutOffFromTheOthersRefusesWritesAndStaleReadsThenCatchesUp() throws Exception {
        Duration deadline = Duration.ofSeconds(8);
        RaftSettings settings = new RaftSettings("127.0.0.1", 0, RaftSettings.Reads.LEASE, Duration.ofMillis(50))
                .withRequestDeadline(deadline);
        try (RaftCluster cluster = RaftCluster.start(dir, 3, settings);
                ExecutorService requests = Executors.newVirtualThreadPerTaskExecutor()) {
            cluster.awaitPreferredLeaders();
            GroupPlan plan = cluster.plan();
            // A bucket in every group: the cut node leads one of them and follows in the others.
            Map<GroupPlan.Group, String> buckets = new LinkedHashMap<>();
            for (int i = 0; buckets.size() < plan.groups().size(); i++) {
                buckets.putIfAbsent(plan.groupOf("bucket-" + i), "bucket-" + i);
            }
            ClusterNode cut = cluster.node(0);
            ClusterNode majority = cluster.node(1);
            List<NodeId> others = List.of(id(cluster.node(1)), id(cluster.node(2)));
            for (String bucket : buckets.values()) {
                assertThat(cut.replication().submit(createBucket(bucket)).outcome().value()).isTrue();
                cut.replication().submit(put(bucket, "key", "before the cut"));
            }
            for (String bucket : buckets.values()) {
                assertThat(text(cut.metadata().getObject(bucket, "key"))).contains("before the cut");
            }

            for (ClusterNode node : cluster.nodes()) {
                faults(node).partition(List.of(id(cut)), others);
            }
            awaitLeadersAmong(cluster, plan, others);

            // (b) the majority writes
            for (String bucket : buckets.values()) {
                majority.replication().submit(put(bucket, "key", "after the cut"));
                assertThat(text(cluster.node(2).metadata().getObject(bucket, "key"))).contains("after the cut");
            }

            // (a) writes through the cut node, and (c) lease reads through it, all at once
            Map<String, CompletableFuture<Duration>> writes = new LinkedHashMap<>();
            Map<String, CompletableFuture<Optional<ObjectVersion>>> reads = new LinkedHashMap<>();
            for (String bucket : buckets.values()) {
                writes.put(bucket, CompletableFuture.supplyAsync(() -> {
                    long start = System.nanoTime();
                    try {
                        cut.replication().submit(put(bucket, "refused", "through the cut node"));
                    } catch (MetadataUnavailableException expected) {
                        return Duration.ofNanos(System.nanoTime() - start);
                    }
                    throw new AssertionError("a write through the cut node into " + bucket + " was acknowledged");
                }, requests));
                reads.put(bucket, CompletableFuture.supplyAsync(() -> cut.metadata().getObject(bucket, "key"),
                        requests));
            }
            // A forward under way at the deadline ends within its attempt's timeout.
            Duration generous = deadline.plus(RaftHost.ATTEMPT_TIMEOUT).plusSeconds(30);
            for (Map.Entry<String, CompletableFuture<Duration>> write : writes.entrySet()) {
                Duration failedAfter = get(write.getValue(), generous, "the write through the cut node into "
                        + write.getKey());
                LOG.info(() -> "the write through the cut node into " + write.getKey() + " failed after "
                        + failedAfter + " (request deadline " + deadline + ")");
            }
            for (Map.Entry<String, CompletableFuture<Optional<ObjectVersion>>> read : reads.entrySet()) {
                try {
                    Optional<ObjectVersion> answer = read.getValue().get(generous.toMillis(), TimeUnit.MILLISECONDS);
                    fail("a lease read through the cut node of " + read.getKey() + " answered " + text(answer)
                            + " after the majority wrote 'after the cut'");
                } catch (ExecutionException e) {
                    assertThat(e.getCause()).as("why the read of %s through the cut node failed", read.getKey())
                            .isInstanceOf(MetadataUnavailableException.class);
                } catch (TimeoutException e) {
                    fail("a lease read through the cut node of " + read.getKey() + " neither answered nor failed"
                            + " within " + generous);
                }
            }

            // (d) healed, the cut node catches up; what it refused was never applied
            for (ClusterNode node : cluster.nodes()) {
                faults(node).heal();
            }
            for (String bucket : buckets.values()) {
                long until = System.nanoTime() + WAIT.toNanos();
                Optional<String> seen = Optional.empty();
                while (!seen.equals(Optional.of("after the cut"))) {
                    if (System.nanoTime() > until) {
                        fail("the healed node still reads " + seen + " in " + bucket + " after " + WAIT);
                    }
                    try {
                        seen = text(cut.metadata().getObject(bucket, "key"));
                    } catch (MetadataUnavailableException e) {
                        Thread.sleep(100);
                    }
                }
            }
            for (ClusterNode node : cluster.nodes()) {
                for (String bucket : buckets.values()) {
                    assertThat(node.metadata().getObject(bucket, "refused"))
                            .as("the write %s refused into %s, read through %s", id(cut), bucket, id(node)).isEmpty();
                }
            }
        }
    }

    /** Waits until every group has a leader among {@code voters} that all of them follow. */
    private static void awaitLeadersAmong(RaftCluster cluster, GroupPlan plan, List<NodeId> voters)
            throws InterruptedException {
        long until = System.nanoTime() + WAIT.toNanos();
        while (!plan.groups().stream().allMatch(group -> {
            List<Optional<ConsensusGroup>> views = voters.stream().map(voter -> cluster.view(voter, group)).toList();
            return views.stream().allMatch(view -> view.filter(seen -> seen.leader() != null
                    && voters.contains(new NodeId(seen.leader()))
                    && views.stream().allMatch(other -> other.map(ConsensusGroup::leader)
                            .filter(seen.leader()::equals).isPresent())).isPresent())
                    && views.stream().anyMatch(view -> view.map(ConsensusGroup::role).filter("leader"::equals)
                            .isPresent());
        })) {
            if (System.nanoTime() > until) {
                fail("the majority " + voters + " did not lead every group within " + WAIT + ": "
                        + voters.stream().map(voter -> voter + "=" + cluster.node(voter).replication().groups())
                                .toList());
            }
            Thread.sleep(50);
        }
    }

    /** A command's time through {@code node}, checking it cost {@code rounds}. */
    private static Duration timed(ClusterNode node, MetadataCommand<?> command, int rounds) {
        long start = System.nanoTime();
        Applied<?> applied = node.replication().submit(command);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(applied.rounds()).as("rounds of %s through %s", command.getClass().getSimpleName(), id(node))
                .isEqualTo(rounds);
        return took;
    }

    private static <T> T get(CompletableFuture<T> future, Duration timeout, String what) throws Exception {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AssertionError failure) {
                throw failure;
            }
            throw e;
        } catch (TimeoutException e) {
            throw new AssertionError(what + " neither succeeded nor failed within " + timeout, e);
        }
    }

    /** The node's counts of one kind of command or read, from now on. */
    private static final class Counted {
        private final ClusterNode node;
        private final String kind;
        private final boolean read;
        private final ReplicationStats.Totals before;

        Counted(ClusterNode node, String kind, boolean read) {
            this.node = node;
            this.kind = kind;
            this.read = read;
            this.before = totals();
        }

        private ReplicationStats.Totals totals() {
            ReplicationStats stats = node.replication().stats();
            return (read ? stats.reads() : stats.commands()).getOrDefault(kind, new ReplicationStats.Totals(0, 0));
        }

        void assertDelta(long operations, long rounds) {
            ReplicationStats.Totals after = totals();
            assertThat(after.operations() - before.operations()).as("%s counted by %s", kind, id(node))
                    .isEqualTo(operations);
            assertThat(after.rounds() - before.rounds()).as("rounds of %s counted by %s", kind, id(node))
                    .isEqualTo(rounds);
        }
    }

    private static MetadataCommand.CreateBucket createBucket(String name) {
        return new MetadataCommand.CreateBucket(new BucketRecord(name, NOW, "us-east-1"));
    }

    private static MetadataCommand.PutVersion put(String bucket, String key, String text) {
        byte[] data = text.getBytes(UTF_8);
        ObjectVersion version = new ObjectVersion(bucket, key, ObjectVersion.NULL_VERSION, NOW, data.length,
                "\"" + text.hashCode() + "\"", new ObjectContent.Inline(data), Map.of(), Map.of(), null, List.of());
        return new MetadataCommand.PutVersion(version, new Precondition.None(), LockCheck.NONE);
    }

    private static Optional<String> text(Optional<ObjectVersion> version) {
        return version.map(found -> new String(((ObjectContent.Inline) found.content()).data(), UTF_8));
    }
}
