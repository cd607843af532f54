package dev.hangar.bench.consensus;

import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Precondition;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The consensus lab's in-process half: small-object S3 requests ({@link SmallObjectRequests}) on a whole cluster in
 * this JVM ({@link InProcessCluster}), one request at a time as Garage's s3lat sends them, under both replication
 * policies, coordinated by the leader of the bucket's group, a follower or a gateway ({@link Placement}), with a
 * one-way delay on every link. Latency in sample-time mode (p50, p90, p99, ... in the output); the rounds the
 * coordinator counted per request beside it ({@link RoundsCounters}).
 *
 * <p>A trial starts its own cluster at no delay, creates the bucket, writes the {@value #READ_OBJECTS} objects the
 * reads and the listing find, then sets the delay. Puts go to keys nobody wrote; each delete removes an object
 * written through the leader just before it, outside the measured time. The full parameter matrix is 576 trials:
 * bench/README.md and docs/consensus-lab.md give smaller invocations.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class ConsensusBenchmark {
    static final String BUCKET = "consensus-lab";
    static final String READ_PREFIX = "read/";
    static final int READ_OBJECTS = 32;

    /** {@code leaderless}, or Raft with lease, read-index or leader reads ({@link Policy}). */
    @Param({"leaderless", "raft-lease", "raft-read-index", "raft-leader"})
    public String policy;

    /** The coordinating node: {@code leader}, {@code follower} or {@code gateway} ({@link Role}). */
    @Param({"leader", "follower", "gateway"})
    public String role;

    /** One-way delay on every link between two nodes, in milliseconds (a round trip is twice it). */
    @Param({"0", "5", "25", "50"})
    public int delayMs;

    /** Storage nodes (replication factor 3), besides the gateway. */
    @Param({"3", "5"})
    public int nodes;

    /** Object size in bytes: small enough to be stored inline ({@value SmallObjectRequests#INLINE_THRESHOLD} B). */
    @Param({"256"})
    public int size;

    /** {@code s3}: a request makes the settings reads of the S3 layer too; {@code object}: the object call alone. */
    @Param({"s3"})
    public String calls;

    /** Node sync policy, {@code none} or {@code always} (which also syncs the Raft log on every append). */
    @Param({"none"})
    public String sync;

    private InProcessCluster cluster;
    private SmallObjectRequests requests;
    private SmallObjectRequests throughLeader;
    private final AtomicLong keys = new AtomicLong();

    @Setup(Level.Trial)
    public void setUp() {
        prepare(InProcessCluster.start(Policy.parse(policy), nodes, syncPolicy()));
    }

    /**
     * Everything a trial does once {@code running} runs: the bucket (created unless it exists), the roles' nodes,
     * the objects to read, the delay. Separate from {@link #setUp} so that the smoke test can run every role on one
     * cluster.
     */
    void prepare(InProcessCluster running) {
        if (size < 1 || size > SmallObjectRequests.INLINE_THRESHOLD) {
            throw new IllegalArgumentException("size must be between 1 and " + SmallObjectRequests.INLINE_THRESHOLD
                    + " bytes (an inline object), not " + size);
        }
        cluster = running;
        boolean settings = switch (calls) {
            case "s3" -> true;
            case "object" -> false;
            default -> throw new IllegalArgumentException("calls must be s3 or object, not " + calls);
        };
        cluster.node(InProcessCluster.GATEWAY).metadata()
                .createBucket(new BucketRecord(BUCKET, Instant.now(), "us-east-1"));
        Placement placement = cluster.place(BUCKET);
        throughLeader = new SmallObjectRequests(cluster.node(placement.leader()).metadata(), BUCKET, false);
        for (int i = 0; i < READ_OBJECTS; i++) {
            throughLeader.put(readKey(i), payload(), new Precondition.None());
        }
        requests = new SmallObjectRequests(cluster.node(placement.node(Role.parse(role))).metadata(), BUCKET,
                settings);
        cluster.delayEveryLink(Duration.ofMillis(delayMs));
    }

    private SyncPolicy syncPolicy() {
        return switch (sync) {
            case "none" -> SyncPolicy.NONE;
            case "always" -> SyncPolicy.ALWAYS;
            default -> throw new IllegalArgumentException("sync must be none or always, not " + sync);
        };
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        cluster.close();
    }

    /** PutObject of a new key. */
    @Benchmark
    public Optional<ObjectVersion> putObject(RoundsCounters rounds) {
        return rounds.count(requests.put(uniqueKey("put/"), payload(), new Precondition.None()));
    }

    /** PutObject with If-None-Match: * of a new key: the store checks that it is absent, atomically with the write. */
    @Benchmark
    public Optional<ObjectVersion> conditionalPutObject(RoundsCounters rounds) {
        return rounds.count(requests.put(uniqueKey("conditional/"), payload(), new Precondition.IfAbsent()));
    }

    /** GetObject of one of the objects written at setup, in turn: its bytes. */
    @Benchmark
    public byte[] getObject(RoundsCounters rounds) {
        return switch (found(rounds.count(requests.get(nextReadKey()))).content()) {
            case ObjectContent.Inline inline -> inline.data();
            case ObjectContent.Blocks blocks -> throw new IllegalStateException("not an inline object: " + blocks);
            case ObjectContent.DeleteMarker marker -> throw new IllegalStateException("a delete marker");
        };
    }

    /** HeadObject of one of the objects written at setup, in turn: its ETag. */
    @Benchmark
    public String headObject(RoundsCounters rounds) {
        return found(rounds.count(requests.get(nextReadKey()))).etag();
    }

    /** ListObjectsV2 of the objects written at setup: one page. */
    @Benchmark
    public ObjectListing listObjectsV2(RoundsCounters rounds) {
        ObjectListing page = rounds.count(requests.list(READ_PREFIX, 1000));
        if (page.entries().size() != READ_OBJECTS) {
            throw new IllegalStateException("listed " + page.entries().size() + " objects, not " + READ_OBJECTS);
        }
        return page;
    }

    /** DeleteObject of an object written just before, outside the measured time. */
    @Benchmark
    public ObjectVersion deleteObject(Deletable target, RoundsCounters rounds) {
        return rounds.count(requests.delete(target.key)).orElseThrow(
                () -> new IllegalStateException("deleting " + target.key + " removed nothing"));
    }

    /** A key written through the leader for {@link #deleteObject} to remove. */
    @State(Scope.Thread)
    public static class Deletable {
        String key = "";

        @Setup(Level.Invocation)
        public void write(ConsensusBenchmark benchmark) {
            key = benchmark.uniqueKey("delete/");
            benchmark.throughLeader.put(key, benchmark.payload(), new Precondition.None());
        }
    }

    // The role in the key keeps apart the keys of benchmarks that share a cluster (the smoke test's).
    private String uniqueKey(String prefix) {
        return prefix + role + "/" + keys.incrementAndGet();
    }

    private String nextReadKey() {
        return readKey((int) (keys.incrementAndGet() % READ_OBJECTS));
    }

    private static String readKey(int index) {
        return READ_PREFIX + String.format("%03d", index);
    }

    // Random per object, so that nothing could be deduplicated or compressed away.
    private byte[] payload() {
        byte[] data = new byte[size];
        ThreadLocalRandom.current().nextBytes(data);
        return data;
    }

    private ObjectVersion found(Optional<ObjectVersion> version) {
        // A miss is answered faster than a hit: counting it as a measurement would flatter the policy.
        return version.orElseThrow(() -> new IllegalStateException("an object written at setup was not found"));
    }
}
