package dev.hangar.cluster.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.cluster.rpc.NetworkFaults;
import dev.hangar.cluster.table.TableConfig;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.MetadataUnavailableException;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command whose quorum read and write are more than half the garbage grace apart is not written
 * ({@link CommitWindow}): a completion that stalled that long could reference a part's blocks that another node,
 * where the part was uploaded again, has freed after its grace. The stall is made by delaying every message
 * between the nodes, so each of the completion's quorum reads takes longer than the window.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CommitWindowTest {
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    /** Each message between nodes waits this long: one quorum read alone outlasts the window below. */
    private static final Duration DELAY = Duration.ofMillis(700);
    /** A window of 500 ms. */
    private static final Duration GRACE = Duration.ofSeconds(1);

    @TempDir
    Path dir;

    private MetaCluster cluster;

    @BeforeEach
    void startCluster() throws InterruptedException {
        cluster = new MetaCluster(dir, TableConfig.consistent(ReplicatedMetadataStore.TABLE), "a", "b", "c");
    }

    @AfterEach
    void stopCluster() {
        cluster.close();
    }

    @Test
    void aCompletionThatStalledPastHalfTheGraceIsNotWrittenAndARetryIs() throws Exception {
        ReplicatedMetadataStore store = cluster.node("a").openStore(Duration.ZERO, GRACE);
        MultipartUpload upload = startUpload(store);
        ObjectVersion object = completed(upload, store);

        cluster.faults.setDefault(new NetworkFaults.LinkFaults(DELAY, Duration.ZERO, 0));
        assertThatThrownBy(() -> store.completeUpload(upload, object))
                .isInstanceOf(MetadataUnavailableException.class)
                .hasMessageContaining("more than half the garbage grace");
        cluster.faults.setDefault(NetworkFaults.LinkFaults.NONE);

        assertThat(store.getObject("photos", "big.iso")).as("nothing of the refused completion written").isEmpty();
        assertThat(store.getUpload("photos", "big.iso", "u1")).isPresent();
        assertThat(store.completeUpload(upload, object)).isEmpty();
        assertThat(store.getObject("photos", "big.iso")).contains(object);
    }

    @Test
    void theSameStallWithinTheWindowOfTheDefaultGraceIsWritten() throws Exception {
        ReplicatedMetadataStore store = cluster.node("a").openStore(Duration.ZERO,
                ReplicatedMetadataStore.DEFAULT_GARBAGE_GRACE);
        MultipartUpload upload = startUpload(store);
        ObjectVersion object = completed(upload, store);

        cluster.faults.setDefault(new NetworkFaults.LinkFaults(DELAY, Duration.ZERO, 0));
        try {
            assertThat(store.completeUpload(upload, object)).isEmpty();
        } finally {
            cluster.faults.setDefault(NetworkFaults.LinkFaults.NONE);
        }
        assertThat(store.getObject("photos", "big.iso")).contains(object);
    }

    private static MultipartUpload startUpload(ReplicatedMetadataStore store) throws Exception {
        store.createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        MultipartUpload upload = new MultipartUpload("photos", "big.iso", "u1", NOW, Map.of(), Map.of(), null);
        store.createUpload(upload);
        return upload;
    }

    private static ObjectVersion completed(MultipartUpload upload, ReplicatedMetadataStore store) throws Exception {
        BlockRef block = new BlockRef(BlockId.random(), 1 << 20, 42);
        store.putPart(upload, new Part("u1", 1, NOW, block.size(), "\"part-1\"", List.of(block), null));
        return new ObjectVersion("photos", "big.iso", ObjectVersion.NULL_VERSION, NOW, block.size(), "\"etag-1\"",
                new ObjectContent.Blocks(List.of(block)), Map.of(), Map.of(), null, List.of());
    }
}
