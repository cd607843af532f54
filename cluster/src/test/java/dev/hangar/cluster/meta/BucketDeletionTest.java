package dev.hangar.cluster.meta;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.TableConfig;
import dev.hangar.cluster.table.Timestamp;
import dev.hangar.metadata.BucketNotEmptyException;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.NoSuchBucketException;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bucket's deletion through one node against writes into it through another ({@link
 * BucketDeletion}), with the interleavings forced rather than hoped for: node a keeps bucket
 * settings for minutes and hears no invalidation, so its writes still believe in a bucket that b
 * deleted; a deletion's mark is written by hand to stand for one under way.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BucketDeletionTest {
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");

    @TempDir
    Path dir;

    private MetaCluster cluster;
    /** Node a's store, whose settings cache outlives the test and whom no other node tells of changes. */
    private ReplicatedMetadataStore stale;

    @BeforeEach
    void startCluster() throws InterruptedException {
        cluster = new MetaCluster(dir, TableConfig.consistent(ReplicatedMetadataStore.TABLE), "a", "b", "c");
        stale = new ReplicatedMetadataStore(cluster.node("a").table(), dir.resolve("stale-garbage"),
                Duration.ofMinutes(10), Duration.ZERO);
    }

    @AfterEach
    void stopCluster() {
        stale.close();
        cluster.close();
    }

    private ReplicatedMetadataStore store(String node) {
        return cluster.node(node).store();
    }

    private static ObjectVersion inline(String bucket, String key, String text) {
        byte[] data = text.getBytes(UTF_8);
        return new ObjectVersion(bucket, key, ObjectVersion.NULL_VERSION, NOW, data.length, "\"" + text + "\"",
                new ObjectContent.Inline(data), Map.of(), Map.of(), null, List.of());
    }

    private static ObjectVersion withBlock(String bucket, String key, BlockRef block) {
        return new ObjectVersion(bucket, key, ObjectVersion.NULL_VERSION, NOW, block.size(), "\"etag\"",
                new ObjectContent.Blocks(List.of(block)), Map.of(), Map.of(), null, List.of());
    }

    private void bucketKnownToTheStaleNode(String bucket) throws Exception {
        store("b").createBucket(new BucketRecord(bucket, NOW, "us-east-1"));
        assertThat(stale.getBucket(bucket)).isPresent();
    }

    @Test
    void aPutIntoABucketDeletedThroughAnotherNodeIsWithdrawnAndAnswersNoSuchBucket() throws Exception {
        bucketKnownToTheStaleNode("photos");
        assertThat(store("b").deleteBucket("photos")).isTrue();
        BlockRef block = new BlockRef(BlockId.random(), 1 << 20, 0);

        assertThatThrownBy(() -> stale.putObject(withBlock("photos", "cat.jpg", block)))
                .isInstanceOf(NoSuchBucketException.class);

        // Nothing of it shows in a bucket of that name created again; its block is garbage.
        store("c").createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        for (String node : List.of("a", "b", "c")) {
            assertThat(store(node).listObjects("photos", new ListQuery("", null, null, 10)).entries()).isEmpty();
            assertThat(store(node).getObject("photos", "cat.jpg")).isEmpty();
        }
        assertThat(stale.pendingGarbage(10)).containsExactly(block.id());
        // The stale node forgot the bucket: its next write finds it again, created anew.
        stale.putObject(inline("photos", "dog.jpg", "woof"));
        assertThat(store("b").getObject("photos", "dog.jpg")).isPresent();
    }

    @Test
    void aVersionedPutAndAnUploadIntoADeletedBucketAreWithdrawnToo() throws Exception {
        bucketKnownToTheStaleNode("photos");
        assertThat(store("b").deleteBucket("photos")).isTrue();
        ObjectVersion versioned = new ObjectVersion("photos", "k", "v1", NOW, 1, "\"x\"",
                new ObjectContent.Inline(new byte[] {'x'}), Map.of(), Map.of(), null, List.of());

        assertThatThrownBy(() -> stale.putObject(versioned)).isInstanceOf(NoSuchBucketException.class);
        assertThatThrownBy(() -> stale.createUpload(new MultipartUpload("photos", "big", "u1", NOW, Map.of(), Map.of(), null)))
                .isInstanceOf(NoSuchBucketException.class);
        store("c").createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        assertThat(store("b").getVersion("photos", "k", "v1")).isEmpty();
        assertThat(store("b").getUpload("photos", "big", "u1")).isEmpty();
        assertThat(store("b").deleteBucket("photos")).as("nothing left in it").isTrue();
    }

    @Test
    void aPutThatMeetsADeletionUnderWayWaitsForItsOutcome() throws Exception {
        bucketKnownToTheStaleNode("photos");
        Entry mark = cluster.node("b").table().put(MetaKeys.bucketDeletions(), MetaKeys.deletionMark("photos", "under-way"),
                new byte[] {1}).join();

        CompletableFuture<?> put = CompletableFuture.runAsync(() -> {
            try {
                stale.putObject(inline("photos", "k", "x"));
            } catch (NoSuchBucketException e) {
                throw new CompletionException(e);
            }
        });
        Thread.sleep(300);
        assertThat(put).as("waits while the mark stands").isNotDone();

        // The deletion found the bucket not empty and took its mark back: the PUT stands.
        cluster.node("b").table().delete(mark.partitionKey(), mark.sortKey()).join();
        put.get(10, TimeUnit.SECONDS);
        assertThat(store("c").getObject("photos", "k")).isPresent();
    }

    @Test
    void aMarkOlderThanItsLeaseHoldsNothingBack() throws Exception {
        bucketKnownToTheStaleNode("photos");
        long longAgo = System.currentTimeMillis() - BucketDeletion.DEFAULT_LEASE.toMillis() - 1_000;
        cluster.node("b").table().put(Entry.of(MetaKeys.bucketDeletions(), MetaKeys.deletionMark("photos", "crashed"),
                new byte[] {1}, new Timestamp(longAgo, 0, cluster.node("b").id))).join();

        stale.putObject(inline("photos", "k", "x"));

        assertThat(store("c").getObject("photos", "k")).isPresent();
    }

    @Test
    void aDeletionLeavesNoMarkWhateverItsOutcome() throws Exception {
        store("a").createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        store("a").putObject(inline("photos", "k", "x"));

        assertThatThrownBy(() -> store("b").deleteBucket("photos")).isInstanceOf(BucketNotEmptyException.class);
        assertThat(store("c").deleteBucket("elsewhere")).isFalse();
        store("a").deleteObject("photos", "k");
        assertThat(store("b").deleteBucket("photos")).isTrue();

        assertThat(cluster.node("c").table().range(MetaKeys.bucketDeletions(), new byte[0], 10).join().entries())
                .isEmpty();
    }
}
