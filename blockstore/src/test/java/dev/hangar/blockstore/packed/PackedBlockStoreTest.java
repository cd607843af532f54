package dev.hangar.blockstore.packed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.AbstractBlockStoreContractTest;
import dev.hangar.blockstore.BlockHealth;
import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.BlockStoreStatistics;
import dev.hangar.blockstore.BlockStores;
import dev.hangar.blockstore.CompactionReport;
import dev.hangar.blockstore.CorruptBlockException;
import dev.hangar.blockstore.SyncPolicy;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class PackedBlockStoreTest extends AbstractBlockStoreContractTest {
    /** Small segments, so that tests fill several. */
    private static final PackingOptions PACKING = new PackingOptions(64 * 1024, 256 * 1024, 0.5);

    @Override
    protected BlockStore createStore(Path tempDir) throws IOException {
        return BlockStores.packed(tempDir, SyncPolicy.ALWAYS, true, PACKING);
    }

    private PackedBlockStore packed() {
        return (PackedBlockStore) store();
    }

    @Test
    void packsSmallChunksIntoSegmentsAndGivesBigOnesAFile() throws IOException {
        for (int i = 0; i < 100; i++) {
            write(randomBytes(4000 + i));
        }
        BlockId big = write(randomBytes(64 * 1024 + 1));

        assertThat(segmentFiles()).hasSizeBetween(2, 4);
        assertThat(blockFiles()).containsExactly(big.value());
        assertThat(packed().statistics().packedChunks()).isEqualTo(100);
    }

    @Test
    void packedChunksSurviveAReopen() throws IOException {
        Map<BlockId, byte[]> written = writeMany(200, 3000);

        reopenStore();

        assertAllReadBack(written);
    }

    @Test
    void restartsWithoutWritesLeaveNoEmptySegments() throws IOException {
        BlockId id = write(randomBytes(5000));
        reopenStore();
        reopenStore();
        reopenStore();

        // The segment with the chunk, and the active one of this start.
        assertThat(segmentFiles()).hasSize(2);
        assertThat(readAll(id, 0, 5000)).isEqualTo(randomBytes(5000));
    }

    @Test
    void concurrentWritersShareSyncs() throws Exception {
        ExecutorService writers = Executors.newFixedThreadPool(16);
        try {
            List<Future<BlockId>> futures = new ArrayList<>();
            for (int i = 0; i < 800; i++) {
                int size = 2000 + i;
                futures.add(writers.submit(() -> write(randomBytes(size))));
            }
            for (Future<BlockId> future : futures) {
                future.get();
            }
        } finally {
            writers.shutdown();
        }

        BlockStoreStatistics statistics = store().statistics();
        assertThat(statistics.groupCommittedWrites()).isEqualTo(800);
        // Every write was acknowledged by a sync, and with 16 writers most syncs served several.
        assertThat(statistics.groupCommits()).isLessThan(800);
        assertThat(statistics.largestGroupCommit()).isGreaterThan(1);
    }

    @Test
    void aTornLastRecordIsCutOffOnOpen() throws IOException {
        Map<BlockId, byte[]> written = writeMany(20, 3000);
        store().close();
        Path last = segmentFiles().getLast();
        long validEnd = Files.size(last);
        // An append that a crash interrupted: a header and part of its data.
        RecordHeader header = new RecordHeader(BlockId.random(), 3000, 0, 0);
        try (FileChannel channel = FileChannel.open(last, StandardOpenOption.APPEND)) {
            channel.write(header.encode());
            channel.write(ByteBuffer.wrap(randomBytes(100)));
        }

        reopenStore();

        assertThat(Files.size(last)).isEqualTo(validEnd);
        assertAllReadBack(written);
        BlockId after = write(randomBytes(3000));
        assertThat(readAll(after, 0, 3000)).isEqualTo(randomBytes(3000));
    }

    @Test
    void chunksWhoseIndexEntryWasLostAreFoundAgainInUnsealedSegments() throws IOException {
        Map<BlockId, byte[]> written = writeMany(10, 3000);
        store().close();
        // Index additions are not synced: a crash may lose them, as this does by hand.
        try (SegmentIndex index = SegmentIndex.open(tempDir().resolve("index"), true)) {
            for (BlockId id : written.keySet()) {
                index.remove(id);
            }
        }

        reopenStore();

        assertAllReadBack(written);
    }

    @Test
    void readsOfACorruptChunkFailAndAreCounted() throws IOException {
        byte[] content = randomBytes(5000);
        BlockRef ref = store().write(BlockId.random(), new ByteArrayInputStream(content));
        store().close();
        Path segment = segmentFiles().getLast();
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            // The last byte of the file is the last byte of this chunk's data.
            channel.write(ByteBuffer.wrap(new byte[] {(byte) (content[4999] ^ 0x01)}), Files.size(segment) - 1);
        }
        reopenStore();

        assertThatThrownBy(() -> readAll(ref.id(), 0, 10)).isInstanceOf(CorruptBlockException.class);
        assertThatThrownBy(() -> {
                    try (InputStream in = store().read(ref, 0, 5000)) {
                        in.readAllBytes();
                    }
                })
                .isInstanceOf(CorruptBlockException.class);
        assertThat(store().check(ref)).isEqualTo(BlockHealth.CORRUPT);
        assertThat(store().statistics().corruptBlocks()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void compactionReclaimsTheSpaceOfDeletedChunksAndKeepsTheLiveOnes() throws IOException {
        Map<BlockId, byte[]> written = writeMany(400, 5000);
        long before = segmentBytes();
        Map<BlockId, byte[]> survivors = deleteAllButEveryFifth(written);

        CompactionReport report = store().compact();

        assertThat(report.segmentsCompacted()).isGreaterThanOrEqualTo(5);
        assertThat(report.chunksMoved()).isPositive();
        assertThat(segmentBytes()).isLessThan(before / 2);
        assertAllReadBack(survivors);
        reopenStore();
        assertAllReadBack(survivors);
        BlockStoreStatistics statistics = store().statistics();
        assertThat(statistics.packedChunks()).isEqualTo(survivors.size());
    }

    @Test
    void aCompactionInterruptedAfterCopyingLosesNothing() throws IOException {
        interruptedCompactionLosesNothing("copied");
    }

    @Test
    void aCompactionInterruptedAfterMovingLosesNothing() throws IOException {
        interruptedCompactionLosesNothing("moved");
    }

    private void interruptedCompactionLosesNothing(String step) throws IOException {
        Map<BlockId, byte[]> written = writeMany(400, 5000);
        long before = segmentBytes();
        Map<BlockId, byte[]> survivors = deleteAllButEveryFifth(written);
        packed().compactionStep = reached -> {
            if (reached.equals(step)) {
                throw new IllegalStateException("crash at " + step);
            }
        };

        assertThatThrownBy(() -> store().compact()).hasMessageContaining("crash at");
        // The files are as the crash left them; reopening walks the unsealed segment again.
        reopenStore();
        assertAllReadBack(survivors);

        store().compact();
        assertAllReadBack(survivors);
        assertThat(segmentBytes()).isLessThan(before / 2);
        reopenStore();
        assertAllReadBack(survivors);
    }

    @Test
    void deletesDuringACompactionStayDeleted() throws IOException {
        Map<BlockId, byte[]> written = writeMany(400, 5000);
        Map<BlockId, byte[]> survivors = deleteAllButEveryFifth(written);
        List<BlockId> deletedMeanwhile = survivors.keySet().stream().limit(10).toList();
        packed().compactionStep = reached -> {
            if (reached.equals("copied")) {
                for (BlockId id : deletedMeanwhile) {
                    try {
                        store().delete(id);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
            }
        };

        store().compact();

        for (BlockId id : deletedMeanwhile) {
            assertThat(store().exists(id)).isFalse();
            survivors.remove(id);
        }
        assertAllReadBack(survivors);
    }

    private Map<BlockId, byte[]> writeMany(int count, int size) throws IOException {
        Map<BlockId, byte[]> written = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            byte[] content = randomBytes(size + i);
            written.put(write(content), content);
        }
        return written;
    }

    private Map<BlockId, byte[]> deleteAllButEveryFifth(Map<BlockId, byte[]> written) throws IOException {
        Map<BlockId, byte[]> survivors = new LinkedHashMap<>();
        int i = 0;
        for (Map.Entry<BlockId, byte[]> entry : written.entrySet()) {
            if (i++ % 5 == 0) {
                survivors.put(entry.getKey(), entry.getValue());
            } else {
                store().delete(entry.getKey());
            }
        }
        return survivors;
    }

    private void assertAllReadBack(Map<BlockId, byte[]> written) throws IOException {
        for (Map.Entry<BlockId, byte[]> entry : written.entrySet()) {
            byte[] content = entry.getValue();
            BlockRef ref = new BlockRef(entry.getKey(), content.length, crc32c(content));
            try (InputStream in = store().read(ref, 0, content.length)) {
                assertThat(in.readAllBytes()).isEqualTo(content);
            }
        }
    }

    private List<Path> segmentFiles() throws IOException {
        try (Stream<Path> files = Files.list(tempDir().resolve("segments"))) {
            return files.sorted().toList();
        }
    }

    private long segmentBytes() throws IOException {
        long total = 0;
        for (Path file : segmentFiles()) {
            total += Files.size(file);
        }
        return total;
    }

    private List<String> blockFiles() throws IOException {
        try (Stream<Path> files = Files.walk(tempDir(), 3)) {
            return files.filter(Files::isRegularFile)
                    .map(path -> path.getFileName().toString())
                    .filter(name -> name.length() == 32)
                    .toList();
        }
    }
}
