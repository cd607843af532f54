package dev.hangar.cluster.meta;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.rpc.NetworkFaults;
import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.TableConfig;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.MetadataUnavailableException;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.metadata.listing.ByteKeys;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What only a cluster can show: writes seen through every node, outages, partitions, races between nodes. */
class ReplicatedMetadataStoreClusterTest {
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    // A short timeout, so that a partitioned node gives up quickly.
    private static final TableConfig CONFIG =
            new TableConfig(ReplicatedMetadataStore.TABLE, 2, 2, Duration.ofSeconds(1), Duration.ofDays(1));
    private static final List<String> NODES = List.of("a", "b", "c");

    @TempDir
    Path dir;

    private MetaCluster cluster;

    @BeforeEach
    void startCluster() throws InterruptedException {
        cluster = new MetaCluster(dir, CONFIG, "a", "b", "c");
    }

    @AfterEach
    void stopCluster() {
        cluster.close();
    }

    private ReplicatedMetadataStore store(String node) {
        return cluster.node(node).store();
    }

    private static ObjectVersion object(String bucket, String key, String text) {
        byte[] data = text.getBytes(UTF_8);
        return new ObjectVersion(bucket, key, ObjectVersion.NULL_VERSION, NOW, data.length, "\"" + text + "\"",
                new ObjectContent.Inline(data), Map.of(), Map.of(), null, List.of());
    }

    private static ObjectVersion stored(String bucket, String key, String etag, BlockRef... blocks) {
        long size = 0;
        for (BlockRef block : blocks) {
            size += block.size();
        }
        return new ObjectVersion(bucket, key, ObjectVersion.NULL_VERSION, NOW, size, "\"" + etag + "\"",
                new ObjectContent.Blocks(List.of(blocks)), Map.of(), Map.of(), null, List.of());
    }

    @Test
    void aQueuedBlockThatAWinningWriteThroughAnotherNodeReferencesIsNotFreed() throws Exception {
        store("a").createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        BlockRef shared = new BlockRef(BlockId.random(), 10, 1);
        BlockRef other = new BlockRef(BlockId.random(), 10, 2);
        store("a").putObject(stored("photos", "cat.jpg", "v0", shared));

        // b rewrites the object's metadata over the same block (a copy onto itself) while a replaces it:
        // a's write queues the block, and then b's, newer, wins.
        store("a").putObject(stored("photos", "cat.jpg", "v1", other));
        store("b").putObject(stored("photos", "cat.jpg", "v0-copy", shared));

        assertThat(store("a").getObject("photos", "cat.jpg").orElseThrow().etag()).isEqualTo("\"v0-copy\"");
        // The block that the winning version references is not handed out, and leaves the queue; the
        // one nothing references any more is.
        assertThat(store("a").pendingGarbage(100)).doesNotContain(shared.id());
        assertThat(store("a").pendingGarbage(100)).doesNotContain(shared.id());
        assertThat(store("b").pendingGarbage(100)).containsExactly(other.id());
    }

    /**
     * A blind overwrite through a learns what it replaced from its swap. b takes the new version at
     * once, and a read through b repairs c with it before c's copy of the swap arrives: c answers the new
     * version itself. The blocks of the version replaced are queued all the same (once forgotten, they
     * would stay on every replica for good).
     */
    @Test
    void anOverwriteThatReadRepairOvertookStillQueuesTheBlocksItReplaced() throws Exception {
        store("a").createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        BlockRef old = new BlockRef(BlockId.random(), 10, 1);
        store("a").putObject(stored("photos", "cat.jpg", "v0", old));
        byte[] partitionKey = MetaKeys.objects("photos");
        byte[] slot = ObjectSlots.nullSlot(ObjectSlots.readable("cat.jpg"));
        Entry first = cluster.node("a").local().get(partitionKey, slot).orElseThrow();
        awaitUntil("every replica holds the first version", () -> NODES.stream()
                .allMatch(node -> cluster.node(node).local().get(partitionKey, slot).equals(Optional.of(first))));
        cluster.faults.set(new NodeId("a"), new NodeId("c"), delay(400));
        cluster.faults.set(new NodeId("b"), new NodeId("a"), delay(800));

        try (ExecutorService writer = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> overwrite = writer.submit(() ->
                    store("a").putObject(stored("photos", "cat.jpg", "v1", new BlockRef(BlockId.random(), 10, 2))));
            awaitUntil("b holds the new version", () -> !cluster.node("b").local().get(partitionKey, slot)
                    .equals(Optional.of(first)));
            // What the read repair of a read through b that met c's old copy does.
            cluster.node("c").local().merge(cluster.node("b").local().get(partitionKey, slot).orElseThrow());
            overwrite.get();
        }

        assertThat(store("a").getObject("photos", "cat.jpg").orElseThrow().etag()).isEqualTo("\"v1\"");
        assertThat(store("a").pendingGarbage(100)).containsExactly(old.id());
    }

    private static void awaitUntil(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(5);
        }
    }

    private static NetworkFaults.LinkFaults delay(long millis) {
        return new NetworkFaults.LinkFaults(Duration.ofMillis(millis), Duration.ZERO, 0);
    }

    @Test
    void queuedBlocksWaitOutTheGarbageGrace() throws Exception {
        ReplicatedMetadataStore patient = new ReplicatedMetadataStore(cluster.node("c").table(),
                dir.resolve("patient-garbage"), Duration.ofSeconds(1), Duration.ofHours(1));
        try {
            patient.createBucket(new BucketRecord("photos", NOW, "us-east-1"));
            BlockRef old = new BlockRef(BlockId.random(), 10, 1);
            patient.putObject(stored("photos", "cat.jpg", "v0", old));
            patient.putObject(stored("photos", "cat.jpg", "v1", new BlockRef(BlockId.random(), 10, 2)));
            BlockId neverReferenced = BlockId.random();
            patient.queueGarbage(List.of(neverReferenced));

            assertThat(patient.pendingGarbage(100)).containsExactly(neverReferenced);
        } finally {
            patient.close();
        }
    }

    @Test
    void aWriteThroughOneNodeIsReadThroughEvery() throws Exception {
        BucketRecord bucket = new BucketRecord("photos", NOW, "us-east-1");
        assertThat(store("a").createBucket(bucket)).isTrue();
        ObjectVersion cat = object("photos", "cat.jpg", "meow");
        store("a").putObject(cat);

        for (String node : List.of("b", "c")) {
            assertThat(store(node).getBucket("photos")).contains(bucket);
            assertThat(store(node).getObject("photos", "cat.jpg")).contains(cat);
            assertThat(store(node).listObjects("photos", new ListQuery("", null, null, 10)).entries())
                    .containsExactly(cat);
            assertThat(store(node).createBucket(bucket)).isFalse();
        }
    }

    @Test
    void everythingWorksWithOneNodeDown() throws Exception {
        cluster.node("c").stop();
        store("a").createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        ObjectVersion first = object("photos", "k", "first");
        store("a").putObject(first);
        assertThat(store("b").getObject("photos", "k")).contains(first);
        ObjectVersion second = object("photos", "k", "second");
        assertThat(store("b").putObject(second)).contains(first);

        cluster.node("c").start();
        // c's replica missed both writes; its reads still meet a replica that has them.
        assertThat(store("c").getObject("photos", "k")).contains(second);
        assertThat(store("c").listObjects("photos", new ListQuery("", null, null, 10)).entries())
                .containsExactly(second);
    }

    @Test
    void listingsThroughAStaleNodePageThroughEveryKeyOnce() throws Exception {
        cluster.node("c").stop();
        store("a").createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            store("a").putObject(object("photos", "top" + i / 10 + i % 10, "x"));
            expected.add("top" + i / 10 + i % 10);
            store("b").putObject(object("photos", "dir" + i % 3 + "/file" + i, "x"));
        }
        store("a").deleteObject("photos", "top05");
        expected.remove("top05");
        expected.addAll(0, List.of("dir0/", "dir1/", "dir2/"));
        cluster.node("c").start();

        // c's replica is empty: every page merges what a and b hold, and repairs c on the way.
        List<String> listed = new ArrayList<>();
        String after = null;
        ObjectListing page;
        do {
            page = store("c").listObjects("photos", new ListQuery("", "/", after, 4));
            page.commonPrefixes().forEach(listed::add);
            page.entries().forEach(entry -> listed.add(entry.key()));
            after = page.nextMarker();
        } while (page.truncated());
        assertThat(listed).containsExactlyElementsOf(expected);
    }

    @Test
    void anIsolatedNodeIsUnavailableWhileTheMajorityServes() throws Exception {
        store("a").createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        cluster.faults.partition(List.of(new NodeId("a")), List.of(new NodeId("b"), new NodeId("c")));

        assertThatThrownBy(() -> store("a").putObject(object("photos", "k", "lost")))
                .isInstanceOf(MetadataUnavailableException.class)
                .hasMessageContaining("metadata unavailable");
        assertThatThrownBy(() -> store("a").getObject("photos", "k"))
                .isInstanceOf(MetadataUnavailableException.class);

        ObjectVersion kept = object("photos", "k", "kept");
        store("b").putObject(kept);
        assertThat(store("c").getObject("photos", "k")).contains(kept);

        cluster.faults.heal();
        assertThat(store("a").getObject("photos", "k")).contains(kept);
    }

    @Test
    void concurrentPutsOfOneKeyThroughTwoNodesConverge() throws Exception {
        store("a").createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        int writes = 30;
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> writers = new ArrayList<>();
            for (String node : List.of("a", "b")) {
                ReplicatedMetadataStore store = store(node);
                writers.add(executor.submit(() -> {
                    start.await();
                    for (int i = 0; i < writes; i++) {
                        store.putObject(object("photos", "hot", node + "-" + i));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> writer : writers) {
                writer.get();
            }
        }

        Optional<ObjectVersion> winner = store("a").getObject("photos", "hot");
        assertThat(winner).isPresent();
        for (String node : NODES) {
            assertThat(store(node).getObject("photos", "hot")).isEqualTo(winner);
            // One "null" version: the key has one slot for it, however the writers interleaved.
            assertThat(store(node).listVersions("photos", new VersionQuery("", null, null, null, 10)).versions())
                    .hasSize(1);
        }

        for (String node : NODES) {
            assertThat(cluster.node(node).antiEntropy().runOnce().join().failures()).isZero();
        }
        byte[] partitionKey = MetaKeys.objects("photos");
        byte[] sortKey = ObjectSlots.nullSlot(ByteKeys.utf8("hot"));
        Optional<Entry> onA = cluster.node("a").local().get(partitionKey, sortKey);
        assertThat(onA).isPresent();
        for (String node : NODES) {
            assertThat(cluster.node(node).local().get(partitionKey, sortKey)).isEqualTo(onA);
        }
    }
}
