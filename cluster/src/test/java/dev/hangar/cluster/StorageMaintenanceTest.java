package dev.hangar.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.BlockHealth;
import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.CompactionReport;
import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.blockstore.packed.PackingOptions;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.NoSuchBucketException;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compaction and scrub on a real node: packed segments, RocksDB metadata, a temp folder. */
class StorageMaintenanceTest {
    private static final String BUCKET = "scrubbed";
    /** Nothing runs on its own during a test: only what the test asks for. */
    private static final MaintenanceConfig ON_DEMAND = new MaintenanceConfig(Duration.ZERO, Duration.ZERO, 0,
            Duration.ofHours(24));

    @TempDir
    Path dataDirectory;

    private SingleNode node;
    private final Random random = new Random(42);

    @BeforeEach
    void open() {
        node = open(ON_DEMAND);
    }

    @AfterEach
    void close() {
        node.close();
    }

    private SingleNode open(MaintenanceConfig maintenance) {
        NodeConfig config = new NodeConfig(dataDirectory, SyncPolicy.NONE, 8L << 20, Duration.ofHours(1))
                .withBlockBackend(new NodeConfig.BlockBackend.LocalDisk(new PackingOptions(64 * 1024, 64 * 1024, 0.5)));
        SingleNode opened = new SingleNode(config, maintenance);
        opened.metadata().createBucket(new BucketRecord(BUCKET, Instant.EPOCH, "us-east-1"));
        return opened;
    }

    @Test
    void aScrubOfHealthyDataChecksEveryReferenceAndRemovesNothing() throws Exception {
        List<BlockRef> written = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            written.add(putObject("object-" + i, 10_000 + i, 200_000 - i).get(0));
        }
        BlockId young = writeBlock(100).id();

        ScrubProgress done = scrub(Duration.ofHours(1));

        assertThat(done.running()).isFalse();
        assertThat(done.completedScrubs()).isEqualTo(1);
        assertThat(done.lastCompleted()).isNotNull();
        assertThat(done.blocksChecked()).isEqualTo(10);
        assertThat(done.bytesChecked()).isEqualTo(5 * 10_000 + 10 + 5 * 200_000 - 10);
        assertThat(done.corruptBlocks()).isZero();
        assertThat(done.missingBlocks()).isZero();
        assertThat(done.orphansRemoved()).isZero();
        // An unreferenced block younger than the grace may belong to an upload not committed yet.
        assertThat(node.blocks().exists(young)).isTrue();
        assertThat(node.maintenance().scrubProgress()).isEqualTo(done);
    }

    @Test
    void orphansOlderThanTheGraceAreRemovedAndReferencedBlocksStay() throws Exception {
        List<BlockRef> kept = putObject("kept", 5000, 300_000);
        BlockId packedOrphan = writeBlock(5000).id();
        BlockId fileOrphan = writeBlock(300_000).id();

        ScrubProgress done = scrubLater(Duration.ZERO);

        assertThat(done.orphansRemoved()).isEqualTo(2);
        assertThat(node.blocks().exists(packedOrphan)).isFalse();
        assertThat(node.blocks().exists(fileOrphan)).isFalse();
        for (BlockRef ref : kept) {
            assertThat(node.blocks().check(ref)).isEqualTo(BlockHealth.INTACT);
        }
    }

    @Test
    void noBlockYoungerThanAMinuteIsRemovedWhateverTheGrace() throws Exception {
        BlockId young = writeBlock(5000).id();

        ScrubProgress done = scrub(Duration.ZERO);

        assertThat(done.orphansRemoved()).isZero();
        assertThat(node.blocks().exists(young)).isTrue();
    }

    /**
     * A PUT whose blocks are written but whose version is not committed yet when the scrub begins: however long
     * it takes and whatever the grace, its blocks stay, so the version it commits reads back whole.
     */
    @Test
    void blocksOfAWriteInFlightWhenTheScrubBeganStayWhateverTheGrace() throws Exception {
        StorageMaintenance later = laterMaintenance();
        try {
            List<BlockRef> written;
            try (WritesInFlight.Write put = later.writesInFlight().begin()) {
                written = List.of(writeBlock(5000), writeBlock(300_000));

                ScrubProgress during = run(later, Duration.ZERO);

                assertThat(during.orphansRemoved()).isZero();
                putVersion("slow-put", written);
            }
            for (BlockRef ref : written) {
                assertThat(node.blocks().check(ref)).isEqualTo(BlockHealth.INTACT);
            }

            // The same blocks, once no write protects them and nothing references them, are orphans.
            node.metadata().deleteObject(BUCKET, "slow-put");
            ScrubProgress after = run(later, Duration.ZERO);

            assertThat(after.orphansRemoved()).isEqualTo(2);
        } finally {
            later.close();
        }
    }

    /**
     * A GET that holds the blocks of a version overwritten meanwhile: no metadata refers to them any more, so the
     * scrub would take them for orphans; it keeps them while the lease lasts, even with a grace of zero, and
     * removes them once it ends.
     */
    @Test
    void blocksAReadHoldsSurviveAScrubAndGoOnceTheLeaseEnds() throws Exception {
        List<BlockRef> read = putObject("read", 5000, 300_000);
        ReaderLeases.Lease lease = node.leases().begin().hold(ids(read));
        List<BlockRef> replacement = putObject("read", 7000);

        ScrubProgress during = scrubLater(Duration.ZERO);

        assertThat(during.orphansRemoved()).isZero();
        for (BlockRef ref : read) {
            assertThat(node.blocks().check(ref)).isEqualTo(BlockHealth.INTACT);
        }

        lease.close();
        scrubLater(Duration.ZERO);

        // Gone: removed by this scrub, or already by the reclaimer if its pass at start came late enough to
        // find them queued and held (the last release then asks it for a pass).
        for (BlockRef ref : read) {
            assertThat(node.blocks().exists(ref.id())).isFalse();
        }
        assertThat(node.blocks().check(replacement.get(0))).isEqualTo(BlockHealth.INTACT);
    }

    /**
     * A read that found a version before its delete but holds no lease yet (its metadata lookup still returning)
     * when the scrub comes to its orphans: the scrub waits for it, then sees its lease and keeps its blocks.
     */
    @Test
    void aScrubWaitsForAReadStillLookingUpMetadata() throws Exception {
        List<BlockRef> read = putObject("looked-up", 5000, 300_000);
        ReaderLeases.Reading reading = node.leases().begin();
        node.metadata().deleteObject(BUCKET, "looked-up");
        StorageMaintenance later = laterMaintenance();
        try {
            CompletableFuture<ScrubProgress> scrub = later.startScrub(Duration.ZERO).orElseThrow();
            // Time for a scrub that did not wait to remove the blocks before the lease below.
            Thread.sleep(500);
            assertThat(scrub).as("the scrub waits for the reading").isNotDone();

            ReaderLeases.Lease lease = reading.hold(ids(read));
            ScrubProgress during = scrub.get(30, TimeUnit.SECONDS);

            assertThat(during.orphansRemoved()).isZero();
            for (BlockRef ref : read) {
                assertThat(node.blocks().check(ref)).isEqualTo(BlockHealth.INTACT);
            }
            lease.close();
            run(later, Duration.ZERO);
            for (BlockRef ref : read) {
                assertThat(node.blocks().exists(ref.id())).isFalse();
            }
        } finally {
            later.close();
        }
    }

    @Test
    void corruptAndMissingBlocksAreCounted() throws Exception {
        BlockRef intact = writeBlock(4000);
        // A chunk too big to pack: its check compares the whole file with the reference's CRC32C.
        BlockRef wrongChecksum = new BlockRef(writeBlock(100_000).id(), 100_000, 12345);
        BlockRef neverWritten = new BlockRef(BlockId.random(), 4000, 0);
        putVersion("damaged", List.of(intact, wrongChecksum, neverWritten));

        ScrubProgress done = scrub(Duration.ofHours(1));

        assertThat(done.blocksChecked()).isEqualTo(3);
        assertThat(done.corruptBlocks()).isEqualTo(1);
        assertThat(done.missingBlocks()).isEqualTo(1);
        assertThat(node.blocks().statistics().corruptBlocks()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void aBlockWhoseObjectIsDeletedMeanwhileIsNotCountedMissing() throws Exception {
        BlockRef gone = writeBlock(4000);
        putVersion("deleted", List.of(gone));
        node.blocks().delete(gone.id());
        // The object goes too, as a delete running beside the scrub would do it: the second walk no longer sees it.
        node.metadata().deleteObject(BUCKET, "deleted");

        ScrubProgress done = scrub(Duration.ofHours(1));

        assertThat(done.missingBlocks()).isZero();
    }

    @Test
    void aScrubKeepsToItsRate() throws Exception {
        node.close();
        node = open(new MaintenanceConfig(Duration.ZERO, Duration.ZERO, 1 << 20, Duration.ofHours(24)));
        putObject("paced", 512 * 1024, 512 * 1024);

        long start = System.nanoTime();
        ScrubProgress done = scrub(Duration.ofHours(1));

        // 1 MiB at 1 MiB/s: about a second (the last wait is saved up if under 10 ms).
        assertThat(System.nanoTime() - start).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(900));
        assertThat(done.bytesChecked()).isEqualTo(1 << 20);
    }

    @Test
    void aSecondScrubIsRefusedWhileOneRunsAndClosingStopsIt() throws Exception {
        node.close();
        node = open(new MaintenanceConfig(Duration.ZERO, Duration.ZERO, 1024, Duration.ofHours(24)));
        putObject("slow", 64 * 1024, 64 * 1024);

        CompletableFuture<ScrubProgress> running = node.maintenance().startScrub(Duration.ofHours(1)).orElseThrow();
        awaitRunning();
        assertThat(node.maintenance().startScrub(Duration.ofHours(1))).isEmpty();

        long start = System.nanoTime();
        node.close();
        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(5));
        assertThat(running).isCompletedExceptionally();
        assertThat(node.maintenance().scrubProgress().running()).isFalse();
        assertThat(node.maintenance().scrubProgress().error()).startsWith("stopped");
        node = open(ON_DEMAND);
    }

    @Test
    void compactionGivesBackTheSpaceOfDeletedChunks() throws Exception {
        List<BlockRef> refs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            refs.add(writeBlock(10_000));
        }
        for (int i = 0; i < 40; i++) {
            if (i % 5 != 0) {
                node.blocks().delete(refs.get(i).id());
            }
        }

        CompactionReport report = node.maintenance().compactNow();

        assertThat(report.segmentsCompacted()).isPositive();
        assertThat(report.bytesReclaimed()).isPositive();
        for (int i = 0; i < 40; i += 5) {
            assertThat(node.blocks().check(refs.get(i))).isEqualTo(BlockHealth.INTACT);
        }
    }

    private ScrubProgress scrub(Duration orphanGrace) throws Exception {
        return run(node.maintenance(), orphanGrace);
    }

    /** A scrub of the node's stores as if it ran two minutes from now: the blocks written so far are old enough. */
    private ScrubProgress scrubLater(Duration orphanGrace) throws Exception {
        StorageMaintenance later = laterMaintenance();
        try {
            return run(later, orphanGrace);
        } finally {
            later.close();
        }
    }

    private StorageMaintenance laterMaintenance() {
        return new StorageMaintenance(node.metadata(), node.blocks(), node.leases(), ON_DEMAND,
                Clock.offset(Clock.systemUTC(), Duration.ofMinutes(2)));
    }

    private static ScrubProgress run(StorageMaintenance maintenance, Duration orphanGrace) throws Exception {
        Optional<CompletableFuture<ScrubProgress>> started = maintenance.startScrub(orphanGrace);
        assertThat(started).as("a scrub started").isPresent();
        return started.get().get(30, TimeUnit.SECONDS);
    }

    private void awaitRunning() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (node.maintenance().scrubProgress().blocksChecked() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(node.maintenance().scrubProgress().running()).isTrue();
    }

    /** Writes blocks of these sizes and an object version that references them. */
    private List<BlockRef> putObject(String key, int... sizes) throws IOException, NoSuchBucketException {
        List<BlockRef> refs = new ArrayList<>();
        for (int size : sizes) {
            refs.add(writeBlock(size));
        }
        putVersion(key, refs);
        return refs;
    }

    private static List<BlockId> ids(List<BlockRef> refs) {
        return refs.stream().map(BlockRef::id).toList();
    }

    private void putVersion(String key, List<BlockRef> refs) throws NoSuchBucketException {
        long size = refs.stream().mapToLong(BlockRef::size).sum();
        node.metadata().putObject(new ObjectVersion(BUCKET, key, ObjectVersion.NULL_VERSION, Instant.now(), size,
                "\"etag\"", new ObjectContent.Blocks(refs), Map.of(), Map.of(), null, List.of()));
    }

    private BlockRef writeBlock(int size) throws IOException {
        byte[] data = new byte[size];
        random.nextBytes(data);
        return node.blocks().write(BlockId.random(), new ByteArrayInputStream(data));
    }
}
