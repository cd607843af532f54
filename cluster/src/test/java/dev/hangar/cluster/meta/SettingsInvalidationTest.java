package dev.hangar.cluster.meta;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.RoundTrips;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.rpc.NetworkFaults;
import dev.hangar.cluster.table.TableConfig;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A settings change made through one node applies at once on every node that answers its
 * invalidation, although each node caches settings for an hour here: what the tests show is the
 * invalidation, never an expiry. A node that does not answer keeps its copy (the documented limit),
 * and a quorum read under way when the invalidation arrives does not put back what it read before.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SettingsInvalidationTest {
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    private static final Duration LONG_TTL = Duration.ofHours(1);
    private static final String GET = "table." + ReplicatedMetadataStore.TABLE + ".get";
    // Longer than any delay injected below, so that a delayed answer is still an answer.
    private static final TableConfig CONFIG =
            new TableConfig(ReplicatedMetadataStore.TABLE, 2, 2, Duration.ofSeconds(10), Duration.ofDays(1));

    @TempDir
    Path dir;

    private MetaCluster cluster;

    @BeforeEach
    void startCluster() throws InterruptedException {
        cluster = new MetaCluster(dir, CONFIG, "a", "b", "c");
        for (String node : List.of("a", "b", "c")) {
            cluster.node(node).openStore(LONG_TTL);
        }
    }

    @AfterEach
    void stopCluster() {
        cluster.close();
    }

    private ReplicatedMetadataStore store(String node) {
        return cluster.node(node).store();
    }

    @Test
    void aBucketCreatedThroughOneNodeExistsAtOnceOnTheOthersThatCachedItsAbsence() {
        assertThat(store("b").getBucket("photos")).isEmpty();
        assertThat(store("c").getBucket("photos")).isEmpty();

        BucketRecord bucket = new BucketRecord("photos", NOW, "us-east-1");
        assertThat(store("a").createBucket(bucket)).isTrue();

        assertThat(store("b").getBucket("photos")).contains(bucket);
        assertThat(store("c").getBucket("photos")).contains(bucket);
    }

    @Test
    void configurationChangesApplyAtOnceOnEveryNode() throws Exception {
        store("a").createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        assertThat(store("b").getBucketConfig("photos", "versioning")).isEmpty();

        store("a").putBucketConfig("photos", "versioning", bytes("Enabled"));
        assertThat(store("b").getBucketConfig("photos", "versioning")).hasValueSatisfying(
                document -> assertThat(new String(document, UTF_8)).isEqualTo("Enabled"));

        store("c").putBucketConfig("photos", "versioning", bytes("Suspended"));
        assertThat(store("a").getBucketConfig("photos", "versioning")).hasValueSatisfying(
                document -> assertThat(new String(document, UTF_8)).isEqualTo("Suspended"));
        assertThat(store("b").getBucketConfig("photos", "versioning")).hasValueSatisfying(
                document -> assertThat(new String(document, UTF_8)).isEqualTo("Suspended"));

        store("c").putBucketConfig("photos", "cors", bytes("<CORSConfiguration/>"));
        assertThat(store("b").getBucketConfig("photos", "cors")).isPresent();
        assertThat(store("a").deleteBucketConfig("photos", "cors")).isTrue();
        assertThat(store("b").getBucketConfig("photos", "cors")).isEmpty();
        assertThat(store("c").getBucketConfig("photos", "cors")).isEmpty();
    }

    @Test
    void aDeletedBucketAndItsConfigurationsAreGoneAtOnceOnEveryNode() throws Exception {
        store("a").createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        store("a").putBucketConfig("photos", "policy", bytes("{}"));
        assertThat(store("b").getBucket("photos")).isPresent();
        assertThat(store("b").getBucketConfig("photos", "policy")).isPresent();

        assertThat(store("c").deleteBucket("photos")).isTrue();

        assertThat(store("b").getBucket("photos")).isEmpty();
        assertThat(store("b").getBucketConfig("photos", "policy")).isEmpty();
    }

    @Test
    void serviceConfigurationChangesApplyAtOnceOnEveryNode() {
        // Every node has cached the absence first: only the invalidation can make them see the put.
        for (String node : List.of("a", "b", "c")) {
            assertThat(store(node).getServiceConfig("kms-key", "key-1")).isEmpty();
        }

        store("a").putServiceConfig("kms-key", "key-1", bytes("wrapped-1"));
        for (String node : List.of("a", "b", "c")) {
            assertThat(store(node).getServiceConfig("kms-key", "key-1")).as("through %s", node).hasValueSatisfying(
                    document -> assertThat(new String(document, UTF_8)).isEqualTo("wrapped-1"));
            assertThat(store(node).listServiceConfigs("kms-key")).as("through %s", node).containsOnlyKeys("key-1");
        }

        store("c").putServiceConfig("kms-key", "key-1", bytes("rewrapped"));
        store("c").putServiceConfig("kms-key", "key-2", bytes("wrapped-2"));
        for (String node : List.of("a", "b", "c")) {
            assertThat(store(node).getServiceConfig("kms-key", "key-1")).as("through %s", node).hasValueSatisfying(
                    document -> assertThat(new String(document, UTF_8)).isEqualTo("rewrapped"));
            assertThat(store(node).listServiceConfigs("kms-key")).as("through %s", node)
                    .containsOnlyKeys("key-1", "key-2");
        }

        assertThat(store("b").deleteServiceConfig("kms-key", "key-1")).isTrue();
        for (String node : List.of("a", "b", "c")) {
            assertThat(store(node).getServiceConfig("kms-key", "key-1")).as("through %s", node).isEmpty();
            assertThat(store(node).listServiceConfigs("kms-key")).as("through %s", node).containsOnlyKeys("key-2");
        }
        assertThat(store("a").deleteServiceConfig("kms-key", "key-1")).isFalse();
    }

    @Test
    void accessKeyGrantsAndRevocationsApplyAtOnceOnEveryNode() {
        assertThat(store("b").getAccessKey("AKIDREADER0000000001")).isEmpty();

        AccessKey reader = new AccessKey("AKIDREADER0000000001", "secret-0123456789", NOW, false, Map.of());
        store("a").putAccessKey(reader);
        assertThat(store("b").getAccessKey("AKIDREADER0000000001")).contains(reader);

        AccessKey creator = new AccessKey("AKIDREADER0000000001", "secret-0123456789", NOW, false, Map.of(), true);
        store("c").putAccessKey(creator);
        assertThat(store("b").getAccessKey("AKIDREADER0000000001")).contains(creator);

        assertThat(store("a").deleteAccessKey("AKIDREADER0000000001")).isTrue();
        assertThat(store("b").getAccessKey("AKIDREADER0000000001")).isEmpty();
        assertThat(store("c").getAccessKey("AKIDREADER0000000001")).isEmpty();
    }

    @Test
    void theInvalidationIsOneRoundOfASettingsWriteAndObjectWritesPayNone() throws Exception {
        store("a").createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        // Caches the bucket and its versioning state on a, so that the writes below check them without a round.
        store("a").putObject(object("photos", "cat.jpg", "purr"));
        cluster.node("a").client.calls().reset();

        RoundTrips.Tally configWrite = new RoundTrips.Tally();
        try (RoundTrips.Binding bound = RoundTrips.bind(configWrite)) {
            store("a").putBucketConfig("photos", "policy", bytes("{}"));
        }
        RoundTrips.Tally objectWrite = new RoundTrips.Tally();
        try (RoundTrips.Binding bound = RoundTrips.bind(objectWrite)) {
            store("a").putObject(object("photos", "cat.jpg", "meow"));
        }

        // A command that changes settings reads what it checks from the quorum, not from the cache.
        assertThat(configWrite.metadata()).as("rounds of a configuration write: the bucket read, the write, the invalidation")
                .isEqualTo(3);
        assertThat(cluster.node("a").client.calls().count(SettingsInvalidation.METHOD))
                .as("invalidations a sent: one to b, one to c").isEqualTo(2);
        // An object's record is never cached: nothing to invalidate. The write, and the read of its bucket
        // after it (BucketDeletion).
        assertThat(objectWrite.metadata()).as("rounds of a small PutObject").isEqualTo(2);
    }

    @Test
    void aNodeThatDoesNotAnswerKeepsItsCopyAndTheWriteStillReturns() throws Exception {
        store("a").createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        assertThat(store("c").getBucketConfig("photos", "policy")).isEmpty();
        cluster.faults.partition(List.of(new NodeId("c")), List.of(new NodeId("a"), new NodeId("b")));

        store("a").putBucketConfig("photos", "policy", bytes("{}"));

        assertThat(store("b").getBucketConfig("photos", "policy")).isPresent();
        // c never heard of it: it serves its copy until that expires (an hour here, 1 s by default).
        cluster.faults.heal();
        assertThat(store("c").getBucketConfig("photos", "policy")).isEmpty();
    }

    @Test
    void aQuorumReadUnderWayWhenTheInvalidationArrivesDoesNotCacheWhatItRead() throws Exception {
        NodeId reader = new NodeId("b");
        // b's quorum read of the bucket record asks b itself and the first other replica of its
        // partition (zones all differ, so layout order decides); that replica's answers reach b
        // late, so the read is still under way, holding the old answer, when the write's
        // invalidation reaches b from the third node, the writer.
        int partition = cluster.node("b").local().partitionOf(MetaKeys.buckets());
        NodeId slow = cluster.layout.replicas(partition).stream().filter(node -> !node.equals(reader))
                .findFirst().orElseThrow();
        String writer = cluster.layout.replicas(partition).stream()
                .filter(node -> !node.equals(reader) && !node.equals(slow)).findFirst().orElseThrow().value();
        cluster.faults.set(slow, reader, new NetworkFaults.LinkFaults(Duration.ofSeconds(2), Duration.ZERO, 0));

        long getsBefore = cluster.node("b").client.calls().count(GET);
        CompletableFuture<Optional<BucketRecord>> before =
                CompletableFuture.supplyAsync(() -> store("b").getBucket("photos"));
        // Once b has asked the slow replica, that replica answers at once (only its answer travels
        // slowly), and b's own replica as fast: both answer what was there before the write below.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (cluster.node("b").client.calls().count(GET) == getsBefore && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        Thread.sleep(200);
        assertThat(before).as("b's read, waiting for the slow replica's answer").isNotDone();
        BucketRecord bucket = new BucketRecord("photos", NOW, "us-east-1");
        assertThat(store(writer).createBucket(bucket)).isTrue();

        assertThat(before.get(30, TimeUnit.SECONDS)).as("what b read before the bucket existed").isEmpty();
        cluster.faults.clear();
        assertThat(store("b").getBucket("photos")).as("b after the read that raced the invalidation").contains(bucket);
    }

    private static ObjectVersion object(String bucket, String key, String text) {
        byte[] data = bytes(text);
        return new ObjectVersion(bucket, key, ObjectVersion.NULL_VERSION, NOW, data.length, "\"" + text + "\"",
                new ObjectContent.Inline(data), Map.of(), Map.of(), null, List.of());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(UTF_8);
    }
}
