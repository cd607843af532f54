package dev.hangar.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reclamation on a real node (RocksDB metadata, packed block store, in a temp folder) honours the
 * leases of reads: a block a reader holds outlives the version that referenced it, and goes once
 * the reader is done.
 */
class BlockReclaimerTest {
    /** No scheduled sweep runs during a test: passes run when the test or a released lease asks. */
    private static final Duration NEVER = Duration.ofHours(1);
    private static final String BUCKET = "photos";
    private static final String KEY = "cat.jpg";
    private static final int BLOCK = 64 * 1024;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aLeasedBlockOutlivesTheVersionThatReferencedItAndGoesAfterItsReader(@TempDir Path dataDirectory)
            throws Exception {
        try (SingleNode node = open(dataDirectory)) {
            BlockRef old = putBlocks(node, 1).getFirst();

            ReaderLeases.Reading reading = node.leases().begin();
            ObjectVersion found = node.metadata().getObject(BUCKET, KEY).orElseThrow();
            ReaderLeases.Lease lease = reading.hold(blocksOf(found));
            putInline(node);

            assertThat(node.reclaimNow()).as("blocks freed while the reader holds the only queued one").isZero();
            try (InputStream in = node.blocks().read(old, 0, old.size())) {
                assertThat(in.readAllBytes()).hasSize(BLOCK);
            }

            lease.close();
            awaitGone(node, old.id());
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void blocksNobodyReadsAreFreedInTheSamePassAsLeasedOnesAreKept(@TempDir Path dataDirectory) throws Exception {
        try (SingleNode node = open(dataDirectory)) {
            List<BlockRef> first = putBlocks(node, 3);
            ReaderLeases.Reading reading = node.leases().begin();
            // A ranged read holds only the blocks its range touches: here the middle one.
            ReaderLeases.Lease lease = reading.hold(List.of(first.get(1).id()));
            putInline(node);

            assertThat(node.reclaimNow()).isEqualTo(2);
            assertThat(node.blocks().exists(first.get(0).id())).isFalse();
            assertThat(node.blocks().exists(first.get(1).id())).isTrue();
            assertThat(node.blocks().exists(first.get(2).id())).isFalse();
            lease.close();
            awaitGone(node, first.get(1).id());
        }
    }

    /**
     * A cluster node's reclaimer asks the other nodes too: a block their reads hold stays queued, and while a node
     * that must be asked does not answer, nothing of the batch goes. (The other nodes' answers come from a stand-in
     * here; ClusterReadersTest and ClusterReaderLeaseIT ask real ones.)
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void blocksOtherNodesReadsHoldStayAndANodeThatDoesNotAnswerKeepsTheBatch(@TempDir Path dataDirectory)
            throws Exception {
        try (SingleNode node = open(dataDirectory)) {
            List<BlockRef> first = putBlocks(node, 3);
            putInline(node);
            AtomicReference<PeerReaders.Answer> peers =
                    new AtomicReference<>(new PeerReaders.Answer(Set.of(), List.of(new NodeId("away"))));
            try (BlockReclaimer reclaimer = new BlockReclaimer(node.metadata(), node.blocks(), null,
                    candidates -> peers.get(), NEVER)) {
                assertThat(reclaimer.reclaimNow()).as("freed while a node cannot be asked").isZero();
                for (BlockRef block : first) {
                    assertThat(node.blocks().exists(block.id())).isTrue();
                }

                peers.set(new PeerReaders.Answer(Set.of(first.get(1).id()), List.of()));
                assertThat(reclaimer.reclaimNow()).isEqualTo(2);
                assertThat(node.blocks().exists(first.get(1).id())).as("the block another node's read holds").isTrue();

                peers.set(new PeerReaders.Answer(Set.of(), List.of()));
                assertThat(reclaimer.reclaimNow()).isEqualTo(1);
                assertThat(node.blocks().exists(first.get(1).id())).isFalse();
                assertThat(node.metadata().pendingGarbage(10)).isEmpty();
            }
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void readersRacingOverwritesAndReclamationAlwaysReadWholeBlocks(@TempDir Path dataDirectory) throws Exception {
        try (SingleNode node = open(dataDirectory)) {
            putBlocks(node, 2);
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicInteger reads = new AtomicInteger();
            List<CompletableFuture<Void>> tasks = new ArrayList<>();
            for (int r = 0; r < 4; r++) {
                tasks.add(CompletableFuture.runAsync(() -> {
                    while (writing.get()) {
                        try (ReaderLeases.Reading reading = node.leases().begin()) {
                            ObjectVersion version = node.metadata().getObject(BUCKET, KEY).orElseThrow();
                            try (ReaderLeases.Lease lease = reading.hold(blocksOf(version))) {
                                for (BlockRef block : ((ObjectContent.Blocks) version.content()).blocks()) {
                                    try (InputStream in = node.blocks().read(block, 0, block.size())) {
                                        assertThat(in.readAllBytes()).hasSize(BLOCK);
                                    }
                                }
                            }
                            reads.incrementAndGet();
                        } catch (Exception e) {
                            throw new AssertionError("a read failed after " + reads.get() + " reads", e);
                        }
                    }
                }, command -> Thread.ofPlatform().start(command)));
            }
            tasks.add(CompletableFuture.runAsync(() -> {
                try {
                    while (writing.get()) {
                        node.reclaimNow();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, command -> Thread.ofPlatform().start(command)));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            int overwrites = 0;
            try {
                while (overwrites < 300 && System.nanoTime() < deadline) {
                    putBlocks(node, 2);
                    overwrites++;
                }
            } finally {
                writing.set(false);
            }
            CompletableFuture.allOf(tasks.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

            assertThat(overwrites).isPositive();
            assertThat(reads.get()).as("reads that raced %d overwrites", overwrites).isPositive();
            node.reclaimNow();
            assertThat(node.leases().heldBlocks()).isZero();
            assertThat(node.metadata().pendingGarbage(10)).as("nothing left queued once the readers are done").isEmpty();
        }
    }

    /**
     * A node whose own reclaimer has run the pass it runs at start: on a loaded machine that pass came after a
     * test had queued garbage, and freed blocks the test's own reclaimer was to keep.
     */
    private static SingleNode open(Path dataDirectory) throws InterruptedException {
        SingleNode node = new SingleNode(new NodeConfig(dataDirectory, SyncPolicy.NONE, 8L << 20, NEVER));
        node.metadata().createBucket(new BucketRecord(BUCKET, Instant.EPOCH, "us-east-1"));
        node.awaitReclamationPasses();
        return node;
    }

    /** Writes {@code count} blocks of random bytes and makes them the key's (only, unversioned) version. */
    private static List<BlockRef> putBlocks(SingleNode node, int count) throws Exception {
        List<BlockRef> blocks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] data = new byte[BLOCK];
            ThreadLocalRandom.current().nextBytes(data);
            blocks.add(node.blocks().write(BlockId.random(), new ByteArrayInputStream(data)));
        }
        node.metadata().putObject(version(new ObjectContent.Blocks(blocks), (long) BLOCK * count));
        return blocks;
    }

    private static void putInline(SingleNode node) throws Exception {
        Optional<ObjectVersion> replaced = node.metadata().putObject(version(new ObjectContent.Inline(new byte[] {1}), 1));
        assertThat(replaced).isPresent();
    }

    private static ObjectVersion version(ObjectContent content, long size) {
        return new ObjectVersion(BUCKET, KEY, ObjectVersion.NULL_VERSION, Instant.now(), size, "\"etag\"", content,
                Map.of(), Map.of(), null, List.of());
    }

    private static List<BlockId> blocksOf(ObjectVersion version) {
        return ((ObjectContent.Blocks) version.content()).blocks().stream().map(BlockRef::id).toList();
    }

    private static void awaitGone(SingleNode node, BlockId id) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (node.blocks().exists(id) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(node.blocks().exists(id)).as("block %s freed after its last reader", id).isFalse();
    }
}
