package dev.hangar.blockstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@link BlockStore} contract, run against every backend: a backend's test extends this class
 * and only says how to build the store.
 */
public abstract class AbstractBlockStoreContractTest {
    private static final int KIBIBYTE = 1024;
    private static final int MEBIBYTE = 1024 * KIBIBYTE;

    @TempDir private Path tempDir;
    private BlockStore store;

    /** Builds the store under test; a persistent backend keeps its data under {@code tempDir}. */
    protected abstract BlockStore createStore(Path tempDir) throws IOException;

    @BeforeEach
    public void openStore() throws IOException {
        store = createStore(tempDir);
    }

    @AfterEach
    public void closeStore() throws IOException {
        store.close();
    }

    protected final BlockStore store() {
        return store;
    }

    protected final Path tempDir() {
        return tempDir;
    }

    /** Closes the store and builds a new one on the same folder, as a restart would. */
    protected final BlockStore reopenStore() throws IOException {
        store.close();
        store = createStore(tempDir);
        return store;
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 64 * KIBIBYTE - 1, 64 * KIBIBYTE + 1, MEBIBYTE + 3})
    public void readsBackWhatWasWritten(int size) throws IOException {
        byte[] content = randomBytes(size);
        BlockId id = BlockId.random();

        BlockRef ref = store.write(id, new ByteArrayInputStream(content));

        assertThat(ref).isEqualTo(new BlockRef(id, size, crc32c(content)));
        assertThat(readAll(id, 0, size)).isEqualTo(content);
    }

    @Test
    public void checksumIsCrc32c() throws IOException {
        // The check value from the CRC-32C (Castagnoli) definition, independent of java.util.zip.
        byte[] content = "123456789".getBytes(StandardCharsets.US_ASCII);

        BlockRef ref = store.write(BlockId.random(), new ByteArrayInputStream(content));

        assertThat(ref.crc32c()).isEqualTo(0xE3069283);
    }

    @ParameterizedTest(name = "offset {0}, length {1}")
    @CsvSource({
        "0, 10", // start
        "0, 200000", // all of it
        "65530, 1000", // middle, across a 64 KiB buffer boundary
        "100000, 1", // one byte in the middle
        "199990, 10", // end
        "500, 0", // nothing, in the middle
        "200000, 0", // nothing, at the very end
    })
    public void readsRanges(long offset, long length) throws IOException {
        byte[] content = randomBytes(200_000);
        BlockId id = write(content);

        assertThat(readAll(id, offset, length))
                .isEqualTo(Arrays.copyOfRange(content, (int) offset, (int) (offset + length)));
    }

    @ParameterizedTest(name = "offset {0}, length {1}")
    @CsvSource({
        "-1, 1",
        "0, -1",
        "0, 101",
        "100, 1",
        "101, 0",
        "50, 9223372036854775807", // offset + length overflows
    })
    public void refusesRangesOutsideTheBlock(long offset, long length) throws IOException {
        BlockId id = write(randomBytes(100));

        assertThatThrownBy(() -> store.read(id, offset, length))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    public void singleByteReadsAreUnsigned() throws IOException {
        BlockId id = write(new byte[] {(byte) 0xFF, (byte) 0x80, 0x00});

        try (InputStream stream = store.read(id, 0, 3)) {
            assertThat(stream.read()).isEqualTo(0xFF);
            assertThat(stream.read()).isEqualTo(0x80);
            assertThat(stream.read()).isZero();
            assertThat(stream.read()).isEqualTo(-1);
            assertThat(stream.read(new byte[8])).isEqualTo(-1);
        }
    }

    @Test
    public void readingAMissingBlockFails() {
        BlockId missing = BlockId.random();

        assertThatThrownBy(() -> store.read(missing, 0, 0))
                .isInstanceOf(NoSuchBlockException.class)
                .hasMessageContaining(missing.value());
        assertThatThrownBy(() -> store.read(missing, 0, 1))
                .isInstanceOf(NoSuchBlockException.class);
    }

    @Test
    public void existsOnlyBetweenWriteAndDelete() throws IOException {
        BlockId id = BlockId.random();
        assertThat(store.exists(id)).isFalse();

        store.write(id, new ByteArrayInputStream(randomBytes(10)));
        assertThat(store.exists(id)).isTrue();

        store.delete(id);
        assertThat(store.exists(id)).isFalse();
    }

    @Test
    public void deleteIsIdempotent() throws IOException {
        BlockId id = write(randomBytes(10));

        store.delete(id);
        store.delete(id);
        store.delete(BlockId.random());

        assertThat(store.exists(id)).isFalse();
        assertThatThrownBy(() -> store.read(id, 0, 0)).isInstanceOf(NoSuchBlockException.class);
    }

    @Test
    public void deleteLeavesOtherBlocks() throws IOException {
        byte[] kept = randomBytes(100);
        BlockId keptId = write(kept);
        BlockId deletedId = write(randomBytes(100));

        store.delete(deletedId);

        assertThat(readAll(keptId, 0, kept.length)).isEqualTo(kept);
    }

    @Test
    public void blockIsInvisibleUntilItsWriteReturns() throws IOException {
        BlockId id = BlockId.random();
        List<Boolean> seenWhileWriting = new ArrayList<>();
        InputStream source = new ByteArrayInputStream(randomBytes(3 * 64 * KIBIBYTE));
        // Not a ByteArrayInputStream itself, whose readAllBytes would bypass these methods.
        InputStream content =
                new InputStream() {
                    @Override
                    public int read() throws IOException {
                        seenWhileWriting.add(store.exists(id));
                        return source.read();
                    }

                    @Override
                    public int read(byte[] buffer, int offset, int length) throws IOException {
                        seenWhileWriting.add(store.exists(id));
                        return source.read(buffer, offset, length);
                    }
                };

        store.write(id, content);

        assertThat(seenWhileWriting).isNotEmpty().containsOnly(false);
        assertThat(store.exists(id)).isTrue();
    }

    @Test
    public void failedWriteLeavesNoBlock() throws IOException {
        BlockId id = BlockId.random();
        IOException failure = new IOException("connection reset");

        assertThatThrownBy(() -> store.write(id, failingAfter(100 * KIBIBYTE, failure)))
                .isSameAs(failure);

        assertThat(store.exists(id)).isFalse();
        assertThatThrownBy(() -> store.read(id, 0, 0)).isInstanceOf(NoSuchBlockException.class);
    }

    @Test
    public void concurrentWritesAndReadsOfDifferentBlocks() throws Exception {
        int threads = 8;
        int blocksPerThread = 16;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<BlockId>>> results = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                int seed = thread;
                results.add(
                        executor.submit(
                                () -> {
                                    start.await();
                                    return writeAndCheck(seed, blocksPerThread);
                                }));
            }
            start.countDown();

            List<BlockId> ids = new ArrayList<>();
            for (Future<List<BlockId>> result : results) {
                ids.addAll(result.get(60, TimeUnit.SECONDS));
            }
            assertThat(ids).doesNotHaveDuplicates().hasSize(threads * blocksPerThread);
            for (BlockId id : ids) {
                assertThat(store.exists(id)).isTrue();
            }
        } finally {
            executor.shutdownNow();
        }
    }

    private List<BlockId> writeAndCheck(int seed, int count) throws IOException {
        Random random = new Random(seed);
        List<BlockId> ids = new ArrayList<>();
        for (int index = 0; index < count; index++) {
            byte[] content = new byte[random.nextInt(200 * KIBIBYTE)];
            random.nextBytes(content);
            BlockId id = BlockId.random();
            BlockRef ref = store.write(id, new ByteArrayInputStream(content));
            assertThat(ref.crc32c()).isEqualTo(crc32c(content));
            assertThat(readAll(id, 0, content.length)).isEqualTo(content);
            ids.add(id);
        }
        return ids;
    }

    @Test
    public void closedStoreRefusesWork() throws IOException {
        BlockId id = write(randomBytes(10));

        store.close();
        store.close();

        assertThatThrownBy(() -> store.read(id, 0, 10)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.exists(id)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.delete(id)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.write(BlockId.random(), InputStream.nullInputStream()))
                .isInstanceOf(IllegalStateException.class);
    }

    @ParameterizedTest(name = "size {0}")
    @ValueSource(ints = {1, 5000, MEBIBYTE + 3})
    public void verifiedReadsReturnRangesOfIntactBlocks(int size) throws IOException {
        byte[] content = randomBytes(size);
        BlockRef ref = store.write(BlockId.random(), new ByteArrayInputStream(content));

        try (InputStream whole = store.read(ref, 0, size)) {
            assertThat(whole.readAllBytes()).isEqualTo(content);
        }
        try (InputStream tail = store.read(ref, size / 2, size - size / 2)) {
            assertThat(tail.readAllBytes()).isEqualTo(Arrays.copyOfRange(content, size / 2, size));
        }
        try (InputStream nothing = store.read(ref, size / 2, 0)) {
            assertThat(nothing.readAllBytes()).isEmpty();
        }
        assertThat(store.check(ref)).isEqualTo(BlockHealth.INTACT);
    }

    @ParameterizedTest(name = "size {0}")
    @ValueSource(ints = {1, 5000, MEBIBYTE + 3})
    public void verifiedReadsRefuseABlockThatDoesNotMatchItsChecksum(int size) throws IOException {
        // A reference whose CRC differs stands for a block whose bytes changed on disk.
        BlockRef written = store.write(BlockId.random(), new ByteArrayInputStream(randomBytes(size)));
        BlockRef mismatched = new BlockRef(written.id(), written.size(), written.crc32c() ^ 1);

        assertThatThrownBy(() -> {
                    try (InputStream in = store.read(mismatched, 0, size)) {
                        in.readAllBytes();
                    }
                })
                .isInstanceOf(CorruptBlockException.class);
        assertThatThrownBy(() -> {
                    try (InputStream in = store.read(mismatched, 0, 1)) {
                        in.readAllBytes();
                    }
                })
                .isInstanceOf(CorruptBlockException.class);
        assertThat(store.check(mismatched)).isEqualTo(BlockHealth.CORRUPT);
    }

    @ParameterizedTest(name = "size {0}")
    @ValueSource(ints = {1, 5000, MEBIBYTE + 3})
    public void verifiedReadsThroughAChannelIntoOffHeapBuffersReturnTheSameBytes(int size) throws IOException {
        byte[] content = randomBytes(size);
        BlockRef ref = store.write(BlockId.random(), new ByteArrayInputStream(content));

        try (InputStream whole = store.read(ref, 0, size)) {
            assertThat(ChannelReads.readAll(whole, 7000)).isEqualTo(content);
        }
        try (InputStream tail = store.read(ref, size / 3, size - size / 3)) {
            assertThat(ChannelReads.readAll(tail, 64 * 1024)).isEqualTo(Arrays.copyOfRange(content, size / 3, size));
        }
    }

    @ParameterizedTest(name = "size {0}")
    @ValueSource(ints = {1, 5000, MEBIBYTE + 3})
    public void verifiedReadsThroughAChannelRefuseABlockThatDoesNotMatchItsChecksum(int size) throws IOException {
        BlockRef written = store.write(BlockId.random(), new ByteArrayInputStream(randomBytes(size)));
        BlockRef mismatched = new BlockRef(written.id(), written.size(), written.crc32c() ^ 1);

        assertThatThrownBy(() -> {
                    try (InputStream in = store.read(mismatched, 0, size)) {
                        ChannelReads.readAll(in, 7000);
                    }
                })
                .isInstanceOf(CorruptBlockException.class);
    }

    @Test
    public void checkFindsMissingBlocks() throws IOException {
        BlockRef ref = store.write(BlockId.random(), new ByteArrayInputStream(randomBytes(100)));
        store.delete(ref.id());

        assertThat(store.check(ref)).isEqualTo(BlockHealth.MISSING);
    }

    @Test
    public void listsEveryStoredBlock() throws IOException {
        List<BlockRef> written = new ArrayList<>();
        for (int size : new int[] {10, 4000, 70_000, MEBIBYTE + 1}) {
            written.add(store.write(BlockId.random(), new ByteArrayInputStream(randomBytes(size))));
        }
        BlockRef deleted = store.write(BlockId.random(), new ByteArrayInputStream(randomBytes(20)));
        store.delete(deleted.id());
        java.time.Instant before = java.time.Instant.now().minusSeconds(60);

        List<StoredBlock> listed = new ArrayList<>();
        store.forEachBlock(listed::add);

        assertThat(listed).extracting(StoredBlock::id)
                .containsExactlyInAnyOrderElementsOf(written.stream().map(BlockRef::id).toList());
        for (StoredBlock block : listed) {
            BlockRef ref = written.stream().filter(w -> w.id().equals(block.id())).findFirst().orElseThrow();
            assertThat(block.size()).isEqualTo(ref.size());
            assertThat(block.writtenAt()).isAfter(before);
        }
    }

    /** Writes {@code content} as a new block and returns its id. */
    protected final BlockId write(byte[] content) throws IOException {
        BlockId id = BlockId.random();
        store.write(id, new ByteArrayInputStream(content));
        return id;
    }

    protected final byte[] readAll(BlockId id, long offset, long length) throws IOException {
        try (InputStream stream = store.read(id, offset, length)) {
            return stream.readAllBytes();
        }
    }

    /** Random bytes, the same for a given size, so that a failure can be replayed. */
    protected static byte[] randomBytes(int size) {
        byte[] bytes = new byte[size];
        new Random(size * 31L + 7).nextBytes(bytes);
        return bytes;
    }

    protected static int crc32c(byte[] content) {
        CRC32C checksum = new CRC32C();
        checksum.update(content);
        return (int) checksum.getValue();
    }

    /** A stream of {@code size} random bytes that then fails with {@code failure}. */
    protected static InputStream failingAfter(int size, IOException failure) {
        InputStream failing =
                new InputStream() {
                    @Override
                    public int read() throws IOException {
                        throw failure;
                    }
                };
        return new SequenceInputStream(new ByteArrayInputStream(randomBytes(size)), failing);
    }
}
