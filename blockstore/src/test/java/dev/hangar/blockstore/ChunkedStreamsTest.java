package dev.hangar.blockstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ChunkedStreamsTest {
    private static final int CHUNK = 1024;
    /** Three chunks and a short one, so that ranges can start, end and cross everywhere. */
    private static final int SIZE = 3 * CHUNK + 7;

    private final RecordingBlockStore store = new RecordingBlockStore();

    @ParameterizedTest
    @ValueSource(ints = {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, SIZE})
    void cutsIntoBlocksOfTheChunkSize(int size) throws IOException {
        byte[] content = randomBytes(size);

        List<BlockRef> blocks =
                ChunkedStreams.writeChunks(store, new ByteArrayInputStream(content), CHUNK);

        List<Long> expectedSizes = new ArrayList<>();
        for (int start = 0; start < size; start += CHUNK) {
            expectedSizes.add((long) Math.min(CHUNK, size - start));
        }
        assertThat(blocks).extracting(BlockRef::size).isEqualTo(expectedSizes);
        assertThat(blocks).extracting(BlockRef::id).doesNotHaveDuplicates();
        for (int index = 0; index < blocks.size(); index++) {
            BlockRef block = blocks.get(index);
            byte[] expected =
                    Arrays.copyOfRange(content, index * CHUNK, index * CHUNK + (int) block.size());
            assertThat(readBlock(block)).isEqualTo(expected);
            assertThat(block.crc32c()).isEqualTo(crc32c(expected));
        }
        assertThat(readRange(blocks, 0, size)).isEqualTo(content);
        assertThat(store.writes).hasSize(blocks.size());
    }

    @ParameterizedTest(name = "from offset {0}")
    @ValueSource(
            longs = {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK - 1, 2 * CHUNK, 2 * CHUNK + 1,
                3 * CHUNK - 1, 3 * CHUNK, SIZE - 1, SIZE})
    void readsEveryRangeAcrossBlockBoundaries(long offset) throws IOException {
        byte[] content = randomBytes(SIZE);
        List<BlockRef> blocks = writeChunks(content);

        long[] lengths = {0, 1, 2, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 1, SIZE - offset};
        for (long length : lengths) {
            if (offset + length <= SIZE) {
                assertThat(readRange(blocks, offset, length))
                        .as("offset %d, length %d", offset, length)
                        .isEqualTo(
                                Arrays.copyOfRange(content, (int) offset, (int) (offset + length)));
            }
        }
    }

    @ParameterizedTest(name = "from offset {0}")
    @ValueSource(longs = {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 1, SIZE - 1, SIZE})
    void readsEveryRangeAcrossBlockBoundariesThroughItsChannel(long offset) throws IOException {
        byte[] content = randomBytes(SIZE);
        List<BlockRef> blocks = writeChunks(content);

        long[] lengths = {0, 1, CHUNK - 1, CHUNK + 1, 2 * CHUNK + 1, SIZE - offset};
        for (long length : lengths) {
            if (offset + length <= SIZE) {
                try (InputStream stream = ChunkedStreams.openRange(store, blocks, offset, length)) {
                    // A buffer smaller than a block, so reads stop inside blocks and at their ends.
                    assertThat(ChannelReads.readAll(stream, 300))
                            .as("offset %d, length %d", offset, length)
                            .isEqualTo(Arrays.copyOfRange(content, (int) offset, (int) (offset + length)));
                }
            }
        }
    }

    @Test
    void readsSingleBytesAcrossBlockBoundaries() throws IOException {
        byte[] content = randomBytes(SIZE);
        List<BlockRef> blocks = writeChunks(content);

        try (InputStream stream = ChunkedStreams.openRange(store, blocks, CHUNK - 3, CHUNK + 6)) {
            for (int position = CHUNK - 3; position < 2 * CHUNK + 3; position++) {
                assertThat(stream.read()).isEqualTo(Byte.toUnsignedInt(content[position]));
            }
            assertThat(stream.read()).isEqualTo(-1);
        }
    }

    @ParameterizedTest(name = "offset {0}, length {1}")
    @CsvSource({"-1, 1", "0, -1", "0, 3080", "3079, 1", "3080, 0"})
    void refusesRangesOutsideTheBlocks(long offset, long length) throws IOException {
        List<BlockRef> blocks = writeChunks(randomBytes(SIZE));

        assertThatThrownBy(() -> ChunkedStreams.openRange(store, blocks, offset, length))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void refusesChunksOfNoBytes() {
        InputStream content = new ByteArrayInputStream(new byte[1]);

        assertThatThrownBy(() -> ChunkedStreams.writeChunks(store, content, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void streamsEachChunkWithoutReadingAhead() throws IOException {
        CountingInputStream source =
                new CountingInputStream(new ByteArrayInputStream(randomBytes(SIZE)));
        List<Long> consumedAtEachWrite = new ArrayList<>();
        store.beforeEachWrite = () -> consumedAtEachWrite.add(source.count);

        ChunkedStreams.writeChunks(store, source, CHUNK);

        // One byte ahead of each chunk: the peek that tells the end of input from another chunk.
        assertThat(consumedAtEachWrite)
                .containsExactly(1L, CHUNK + 1L, 2 * CHUNK + 1L, 3 * CHUNK + 1L);
    }

    @Test
    void deletesWrittenBlocksWhenTheInputFails() {
        IOException failure = new IOException("client went away");
        InputStream content =
                new SequenceInputStream(
                        new ByteArrayInputStream(randomBytes(2 * CHUNK + CHUNK / 2)),
                        failingStream(failure));

        assertThatThrownBy(() -> ChunkedStreams.writeChunks(store, content, CHUNK))
                .isSameAs(failure);

        assertThat(store.writes).hasSize(3);
        assertThat(store.deletes).containsAll(store.writes.subList(0, 2));
        assertNoneStored(store.writes);
    }

    @Test
    void deletesWrittenBlocksWhenTheStoreFails() {
        IOException failure = new IOException("disk full");
        store.failOnWrite = 3;
        store.failure = failure;

        assertThatThrownBy(
                        () ->
                                ChunkedStreams.writeChunks(
                                        store, new ByteArrayInputStream(randomBytes(SIZE)), CHUNK))
                .isSameAs(failure);

        assertThat(store.writes).hasSize(3);
        assertThat(store.deletes).containsAll(store.writes);
        assertNoneStored(store.writes);
    }

    @ParameterizedTest(name = "writing {0} behind")
    @ValueSource(ints = {1, 2, 5})
    void writingBehindKeepsThatManyWritesRunningAndTheBlocksInStreamOrder(int writeBehind) throws IOException {
        byte[] content = randomBytes(SIZE);
        int chunks = 4;
        // Each write waits until as many writes as may overlap have started: writes that did not
        // overlap would wait here until the timeout and fail the test.
        CountDownLatch overlapping = new CountDownLatch(Math.min(writeBehind, chunks));
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostRunning = new AtomicInteger();
        store.beforeEachWrite = () -> {
            mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            overlapping.countDown();
            await(overlapping);
        };
        store.afterEachWrite = running::decrementAndGet;

        List<BlockRef> blocks = ChunkedStreams.writeChunks(
                store, new ByteArrayInputStream(content), CHUNK, writeBehind, task -> Thread.ofVirtual().start(task));

        assertThat(mostRunning.get()).isEqualTo(Math.min(writeBehind, chunks));
        assertThat(blocks).extracting(BlockRef::size).containsExactly((long) CHUNK, (long) CHUNK, (long) CHUNK, 7L);
        assertThat(readRange(blocks, 0, SIZE)).isEqualTo(content);
        assertThat(store.writes).containsExactlyInAnyOrderElementsOf(blocks.stream().map(BlockRef::id).toList());
        assertThat(store.deletes).isEmpty();
    }

    @Test
    void aFailedWriteBehindDeletesEveryBlockOfTheStream() {
        IOException failure = new IOException("replicas unreachable");
        store.failOnWrite = 2;
        store.failure = failure;

        assertThatThrownBy(() -> ChunkedStreams.writeChunks(
                        store, new ByteArrayInputStream(randomBytes(SIZE)), CHUNK, 2, task -> Thread.ofVirtual().start(task)))
                .isSameAs(failure);

        assertThat(store.writes).hasSizeBetween(2, 4);
        assertThat(store.deletes).containsAll(store.writes);
        assertNoneStored(store.writes);
    }

    @Test
    void anInputFailureWithWritesBehindRunningDeletesEveryBlockOfTheStream() {
        IOException failure = new IOException("client went away");
        // The writes are held until the input has failed, so they are still running when it does.
        CountDownLatch inputFailed = new CountDownLatch(1);
        store.beforeEachWrite = () -> await(inputFailed);
        InputStream failing = new InputStream() {
            @Override
            public int read() throws IOException {
                inputFailed.countDown();
                throw failure;
            }
        };
        InputStream content = new SequenceInputStream(new ByteArrayInputStream(randomBytes(2 * CHUNK + CHUNK / 2)), failing);

        assertThatThrownBy(() -> ChunkedStreams.writeChunks(store, content, CHUNK, 2, task -> Thread.ofVirtual().start(task)))
                .isSameAs(failure);

        assertThat(store.writes).hasSize(2);
        assertThat(store.deletes).containsAll(store.writes);
        assertNoneStored(store.writes);
    }

    @Test
    void refusesANegativeWriteBehind() {
        assertThatThrownBy(() -> ChunkedStreams.writeChunks(store, InputStream.nullInputStream(), CHUNK, -1, Runnable::run))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void opensTheFirstBlockAtTheRangeStart() throws IOException {
        List<BlockRef> blocks = writeChunks(randomBytes(SIZE));

        try (InputStream stream = ChunkedStreams.openRange(store, blocks, 2 * CHUNK + 2, 10)) {
            assertThat(store.reads).containsExactly(new Read(blocks.get(2).id(), 2, 10));
            assertThat(stream.readAllBytes()).hasSize(10);
        }
    }

    @Test
    void opensLaterBlocksOnlyWhenReached() throws IOException {
        List<BlockRef> blocks = writeChunks(randomBytes(SIZE));

        try (InputStream stream = ChunkedStreams.openRange(store, blocks, 0, SIZE)) {
            assertThat(store.reads).containsExactly(new Read(blocks.get(0).id(), 0, CHUNK));

            stream.readNBytes(CHUNK);
            assertThat(store.reads).hasSize(1);

            stream.read();
            assertThat(store.reads).containsExactly(
                    new Read(blocks.get(0).id(), 0, CHUNK), new Read(blocks.get(1).id(), 0, CHUNK));
        }
    }

    @ParameterizedTest(name = "reading {0} ahead")
    @ValueSource(ints = {1, 2, 5})
    void readingAheadOpensTheNextBlocksAtOnceAndReadsTheSameBytes(int readAhead) throws IOException {
        byte[] content = randomBytes(SIZE);
        List<BlockRef> blocks = writeChunks(content);
        List<Runnable> queued = new ArrayList<>();

        try (InputStream stream = ChunkedStreams.openRange(store, blocks, CHUNK - 3, SIZE - CHUNK + 3, readAhead,
                queued::add)) {
            // The first block is read before openRange returns; the next ones are handed to the executor.
            assertThat(store.reads).containsExactly(new Read(blocks.get(0).id(), CHUNK - 3, 3));
            assertThat(queued).hasSize(Math.min(readAhead, 3));
            queued.forEach(Runnable::run);
            queued.clear();
            assertThat(store.reads).hasSize(1 + Math.min(readAhead, 3));

            // Whatever is queued later runs at once, as an executor would run it.
            byte[] read = new byte[SIZE - CHUNK + 3];
            int at = 0;
            while (at < read.length) {
                int count = stream.read(read, at, read.length - at);
                queued.forEach(Runnable::run);
                queued.clear();
                at += count;
            }
            assertThat(read).isEqualTo(Arrays.copyOfRange(content, CHUNK - 3, SIZE));
            assertThat(stream.read()).isEqualTo(-1);
            assertThat(store.reads).extracting(Read::id).containsExactlyElementsOf(
                    blocks.stream().map(BlockRef::id).toList());
        }
    }

    @Test
    void aBlockReadAheadThatFailsFailsTheStreamOnlyWhenReached() throws IOException {
        byte[] content = randomBytes(SIZE);
        List<BlockRef> blocks = writeChunks(content);
        store.delete(blocks.get(2).id());

        try (InputStream stream = ChunkedStreams.openRange(store, blocks, 0, SIZE, 2, Runnable::run)) {
            assertThat(stream.readNBytes(2 * CHUNK)).isEqualTo(Arrays.copyOf(content, 2 * CHUNK));
            assertThatThrownBy(stream::read).isInstanceOf(NoSuchBlockException.class);
        }
    }

    @Test
    void aMissingLaterBlockFailsOnlyWhenReached() throws IOException {
        byte[] content = randomBytes(SIZE);
        List<BlockRef> blocks = writeChunks(content);
        store.delete(blocks.get(2).id());

        try (InputStream stream = ChunkedStreams.openRange(store, blocks, 0, SIZE)) {
            assertThat(stream.readNBytes(2 * CHUNK)).isEqualTo(Arrays.copyOf(content, 2 * CHUNK));
            assertThatThrownBy(stream::read).isInstanceOf(NoSuchBlockException.class);
        }
    }

    @Test
    void aMissingFirstBlockFailsAtOpen() throws IOException {
        List<BlockRef> blocks = writeChunks(randomBytes(SIZE));
        store.delete(blocks.get(1).id());

        assertThatThrownBy(() -> ChunkedStreams.openRange(store, blocks, CHUNK + 5, 10))
                .isInstanceOf(NoSuchBlockException.class);
    }

    @Test
    void anEmptyRangeOpensNoBlock() throws IOException {
        List<BlockRef> blocks = writeChunks(randomBytes(SIZE));

        try (InputStream stream = ChunkedStreams.openRange(store, blocks, CHUNK, 0)) {
            assertThat(stream.read()).isEqualTo(-1);
        }
        try (InputStream stream = ChunkedStreams.openRange(store, List.of(), 0, 0)) {
            assertThat(stream.read()).isEqualTo(-1);
        }
        assertThat(store.reads).isEmpty();
    }

    @Test
    void aClosedRangeRefusesReads() throws IOException {
        List<BlockRef> blocks = writeChunks(randomBytes(SIZE));
        InputStream stream = ChunkedStreams.openRange(store, blocks, 0, SIZE);

        stream.close();

        assertThatThrownBy(stream::read).isInstanceOf(IOException.class);
    }

    private List<BlockRef> writeChunks(byte[] content) throws IOException {
        return ChunkedStreams.writeChunks(store, new ByteArrayInputStream(content), CHUNK);
    }

    private byte[] readRange(List<BlockRef> blocks, long offset, long length) throws IOException {
        try (InputStream stream = ChunkedStreams.openRange(store, blocks, offset, length)) {
            return stream.readAllBytes();
        }
    }

    private byte[] readBlock(BlockRef block) throws IOException {
        try (InputStream stream = store.read(block.id(), 0, block.size())) {
            return stream.readAllBytes();
        }
    }

    private void assertNoneStored(List<BlockId> ids) {
        for (BlockId id : ids) {
            assertThat(store.exists(id)).as("block %s", id).isFalse();
        }
    }

    private static byte[] randomBytes(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }

    private static int crc32c(byte[] content) {
        CRC32C checksum = new CRC32C();
        checksum.update(content);
        return (int) checksum.getValue();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("timed out waiting for " + latch);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static InputStream failingStream(IOException failure) {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                throw failure;
            }
        };
    }

    private record Read(BlockId id, long offset, long length) {}

    /**
     * An in-memory store that records what it is asked, and can fail a chosen write midway; safe to
     * write to from several threads, as writing behind does.
     */
    private static final class RecordingBlockStore implements BlockStore {
        private final BlockStore blocks = BlockStores.inMemory();
        final List<BlockId> writes = Collections.synchronizedList(new ArrayList<>());
        final List<BlockId> deletes = Collections.synchronizedList(new ArrayList<>());
        final List<Read> reads = new ArrayList<>();
        volatile Runnable beforeEachWrite = () -> {};
        volatile Runnable afterEachWrite = () -> {};
        volatile int failOnWrite = 0;
        volatile IOException failure = new IOException("unused");

        @Override
        public BlockRef write(BlockId id, InputStream content) throws IOException {
            beforeEachWrite.run();
            try {
                int number;
                synchronized (writes) {
                    writes.add(id);
                    number = writes.size();
                }
                if (number == failOnWrite) {
                    content.readNBytes(CHUNK / 2);
                    throw failure;
                }
                return blocks.write(id, content);
            } finally {
                afterEachWrite.run();
            }
        }

        @Override
        public InputStream read(BlockId id, long offset, long length) throws IOException {
            reads.add(new Read(id, offset, length));
            return blocks.read(id, offset, length);
        }

        @Override
        public InputStream read(BlockRef block, long offset, long length) throws IOException {
            reads.add(new Read(block.id(), offset, length));
            return blocks.read(block, offset, length);
        }

        @Override
        public boolean exists(BlockId id) {
            try {
                return blocks.exists(id);
            } catch (IOException failure) {
                throw new AssertionError(failure);
            }
        }

        @Override
        public void delete(BlockId id) throws IOException {
            deletes.add(id);
            blocks.delete(id);
        }

        @Override
        public void close() throws IOException {
            blocks.close();
        }
    }

    private static final class CountingInputStream extends FilterInputStream {
        long count;

        CountingInputStream(InputStream source) {
            super(source);
        }

        @Override
        public int read() throws IOException {
            int next = super.read();
            if (next != -1) {
                count++;
            }
            return next;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int read = super.read(buffer, offset, length);
            if (read > 0) {
                count += read;
            }
            return read;
        }
    }
}
