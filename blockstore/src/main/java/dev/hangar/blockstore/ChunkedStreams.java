package dev.hangar.blockstore;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Cuts an object's bytes into blocks and reads a range of them back, streaming both ways: neither
 * direction holds more than a small buffer, whatever the size of the object.
 */
public final class ChunkedStreams {

    private ChunkedStreams() {}

    /**
     * Writes {@code content} as blocks of exactly {@code chunkSize} bytes, the last one shorter,
     * each under a fresh random id. An empty stream gives an empty list: no block is ever empty.
     *
     * <p>The store reads each chunk straight from {@code content}, so only what the store itself
     * buffers is held in memory. If anything fails, the blocks already written are deleted (best
     * effort) and the failure is rethrown. {@code content} is read to its end but not closed.
     *
     * @return the blocks in stream order
     * @throws IllegalArgumentException if {@code chunkSize} is not positive
     */
    public static List<BlockRef> writeChunks(BlockStore store, InputStream content, int chunkSize)
            throws IOException {
        return writeChunks(store, content, chunkSize, 0, Runnable::run);
    }

    /**
     * As {@link #writeChunks(BlockStore, InputStream, int)}, keeping up to {@code writeBehind} block
     * writes running on {@code executor} while the next chunk is read from {@code content} (see
     * {@link BlockStore#writeBehind()}); 0 writes each chunk on the calling thread as it is read.
     * Writing behind holds each chunk in memory until its write returns: up to {@code writeBehind + 1}
     * chunks at a time. A failed write stops the reading; the writes still running are waited for
     * before every block of the stream is deleted, so none is left behind.
     *
     * @throws IllegalArgumentException if {@code chunkSize} is not positive or {@code writeBehind}
     *     is negative
     */
    public static List<BlockRef> writeChunks(BlockStore store, InputStream content, int chunkSize, int writeBehind,
            Executor executor) throws IOException {
        if (chunkSize <= 0) {
            throw new IllegalArgumentException("chunk size must be positive: " + chunkSize);
        }
        if (writeBehind < 0) {
            throw new IllegalArgumentException("write-behind must not be negative: " + writeBehind);
        }
        // Peeking one byte ahead tells the end of the stream from the start of another chunk, so
        // that a stream whose length is a multiple of chunkSize does not end with an empty block.
        PushbackInputStream input = new PushbackInputStream(content, 1);
        ChunkWrites writes = writeBehind == 0 ? new InlineWrites(store) : new WritesBehind(store, writeBehind, executor);
        try {
            for (int next = input.read(); next != -1; next = input.read()) {
                input.unread(next);
                writes.write(BlockId.random(), input, chunkSize);
            }
            return writes.finish();
        } catch (Throwable failure) {
            writes.abandon(failure);
            throw failure;
        }
    }

    /** The blocks of one stream being written, in stream order. */
    private sealed interface ChunkWrites permits InlineWrites, WritesBehind {
        /** Writes, or starts writing, the next {@code chunkSize} bytes of {@code input} as {@code id}. */
        void write(BlockId id, InputStream input, int chunkSize) throws IOException;

        /** Waits for every write still running and returns the blocks in stream order. */
        List<BlockRef> finish() throws IOException;

        /** After a failure: waits for the writes still running, then deletes every block of the stream. */
        void abandon(Throwable failure);
    }

    /** Each chunk streamed into the store on the calling thread. */
    private static final class InlineWrites implements ChunkWrites {
        private final BlockStore store;
        private final List<BlockRef> written = new ArrayList<>();
        private @Nullable BlockId current;

        InlineWrites(BlockStore store) {
            this.store = store;
        }

        @Override
        public void write(BlockId id, InputStream input, int chunkSize) throws IOException {
            current = id;
            written.add(store.write(id, new BoundedInputStream(input, chunkSize)));
            current = null;
        }

        @Override
        public List<BlockRef> finish() {
            return List.copyOf(written);
        }

        @Override
        public void abandon(Throwable failure) {
            // A backend may fail after its block became visible (a directory sync, say), so the
            // block being written is deleted too: deleting a block that does not exist is harmless.
            if (current != null) {
                deleteQuietly(store, current, failure);
            }
            for (BlockRef block : written) {
                deleteQuietly(store, block.id(), failure);
            }
        }
    }

    /**
     * Each chunk read into memory and written on the executor, so that a store whose writes wait for
     * a network round trip overlaps them instead of paying one round trip per chunk in sequence.
     */
    private static final class WritesBehind implements ChunkWrites {
        private final BlockStore store;
        private final int writeBehind;
        private final Executor executor;
        private final List<BlockRef> written = new ArrayList<>();
        /** Writes not yet waited for, in stream order. */
        private final ArrayDeque<Pending> running = new ArrayDeque<>();
        /** Every block this stream started to write, to delete them all on a failure. */
        private final List<BlockId> started = new ArrayList<>();

        private record Pending(BlockId id, CompletableFuture<BlockRef> ref) {}

        WritesBehind(BlockStore store, int writeBehind, Executor executor) {
            this.store = store;
            this.writeBehind = writeBehind;
            this.executor = executor;
        }

        @Override
        public void write(BlockId id, InputStream input, int chunkSize) throws IOException {
            byte[] chunk = input.readNBytes(chunkSize);
            while (running.size() >= writeBehind || failed()) {
                takeOldest();
            }
            started.add(id);
            CompletableFuture<BlockRef> ref = new CompletableFuture<>();
            running.add(new Pending(id, ref));
            try {
                executor.execute(() -> {
                    try {
                        ref.complete(store.write(id, new ByteArrayInputStream(chunk)));
                    } catch (Throwable e) {
                        ref.completeExceptionally(e);
                    }
                });
            } catch (RuntimeException rejected) {
                ref.completeExceptionally(rejected);
            }
        }

        // A failed write is noticed before the next chunk is read rather than when its turn comes.
        private boolean failed() {
            return running.stream().anyMatch(pending -> pending.ref().isCompletedExceptionally());
        }

        private void takeOldest() throws IOException {
            Pending oldest = running.remove();
            written.add(join(oldest.ref(), () -> "writing block " + oldest.id() + " failed"));
        }

        @Override
        public List<BlockRef> finish() throws IOException {
            while (!running.isEmpty()) {
                takeOldest();
            }
            return List.copyOf(written);
        }

        @Override
        public void abandon(Throwable failure) {
            // A write still running may yet make its block visible, so each is waited for (the
            // store bounds its writes' time) before the stream's blocks are deleted.
            for (Pending pending : running) {
                pending.ref().exceptionally(ignored -> null).join();
            }
            running.clear();
            for (BlockId id : started) {
                deleteQuietly(store, id, failure);
            }
        }
    }

    /**
     * Streams bytes {@code [offset, offset + length)} of the concatenation of {@code blocks}.
     *
     * <p>The block holding {@code offset} is opened before this returns, so that a missing first
     * block fails here, before a caller has committed to a response; each later block is opened
     * only when the stream reaches it. The caller closes the returned stream.
     *
     * @throws IndexOutOfBoundsException if the range is not inside the blocks' total size
     * @throws NoSuchBlockException if the first block of the range is not stored
     */
    public static InputStream openRange(
            BlockStore store, List<BlockRef> blocks, long offset, long length) throws IOException {
        return openRange(store, blocks, offset, length, 0, Runnable::run);
    }

    /**
     * As {@link #openRange(BlockStore, List, long, long)}, keeping up to {@code readAhead} of the
     * following blocks being opened on {@code executor} while the stream reads the current one (see
     * {@link BlockStore#readAhead()}). A block read ahead that fails fails the stream only when the
     * stream reaches it; closing the stream closes the blocks read ahead.
     */
    public static InputStream openRange(BlockStore store, List<BlockRef> blocks, long offset, long length,
            int readAhead, Executor executor) throws IOException {
        if (readAhead < 0) {
            throw new IllegalArgumentException("read-ahead must not be negative: " + readAhead);
        }
        List<BlockRef> chain = List.copyOf(blocks);
        long totalSize = 0;
        for (BlockRef block : chain) {
            totalSize += block.size();
        }
        Objects.checkFromIndexSize(offset, length, totalSize);
        if (length == 0) {
            return InputStream.nullInputStream();
        }
        int index = 0;
        long offsetInBlock = offset;
        while (offsetInBlock >= chain.get(index).size()) {
            offsetInBlock -= chain.get(index).size();
            index++;
        }
        BlockChainInputStream stream = new BlockChainInputStream(store, chain, index, length, readAhead, executor);
        stream.openBlock(offsetInBlock);
        return stream;
    }

    /** The result of {@code future}, with the failure it completed with rethrown as it was. */
    private static <T> T join(CompletableFuture<T> future, Supplier<String> what) throws IOException {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IOException(what.get(), e.getCause());
        }
    }

    private static void closeQuietly(InputStream stream) {
        try {
            stream.close();
        } catch (IOException ignored) {
            // A block read ahead and never used: nothing was read from it that could be lost.
        }
    }

    private static void deleteQuietly(BlockStore store, BlockId id, Throwable failure) {
        try {
            store.delete(id);
        } catch (IOException | RuntimeException cleanupFailure) {
            failure.addSuppressed(cleanupFailure);
        }
    }

    /**
     * Reads a run of blocks one after the other, opening each only when it is reached. As a channel it reads
     * each block through the block's own channel when it has one (see {@link VerifiedRange}).
     */
    private static final class BlockChainInputStream extends InputStream implements ReadableByteChannel {
        private final BlockStore store;
        private final List<BlockRef> blocks;
        private int nextIndex;
        private long remaining;
        private InputStream current = InputStream.nullInputStream();
        private @Nullable BlockId currentId;
        private long remainingInCurrent;
        private boolean closed;

        private final int readAhead;
        private final Executor executor;
        /** Blocks being opened ahead, in order, each with the bytes the range needs of it. */
        private final ArrayDeque<Ahead> ahead = new ArrayDeque<>();
        /** The next block to open ahead, and the bytes of the range beyond those opened or scheduled. */
        private int aheadIndex;
        private long unscheduled;

        private record Ahead(BlockRef block, long count, CompletableFuture<InputStream> stream) {}

        BlockChainInputStream(BlockStore store, List<BlockRef> blocks, int firstIndex, long length, int readAhead,
                Executor executor) {
            this.store = store;
            this.blocks = blocks;
            this.nextIndex = firstIndex;
            this.remaining = length;
            this.readAhead = readAhead;
            this.executor = executor;
        }

        /** Opens the next block from {@code offsetInBlock}, for the bytes the range needs of it. */
        void openBlock(long offsetInBlock) throws IOException {
            Ahead opened = ahead.poll();
            BlockRef block = blocks.get(nextIndex++);
            long count = opened != null ? opened.count() : Math.min(block.size() - offsetInBlock, remaining);
            current.close();
            // If the next block cannot be opened, close() must not close the previous one twice.
            current = InputStream.nullInputStream();
            if (opened == null) {
                aheadIndex = nextIndex;
                unscheduled = remaining - count;
            }
            scheduleAhead();
            try {
                current = opened != null ? await(opened) : store.read(block, offsetInBlock, count);
            } catch (IOException | RuntimeException e) {
                closeAhead();
                throw e;
            }
            currentId = block.id();
            remainingInCurrent = count;
        }

        // Blocks past the first are read from their start: only the first one starts at an offset.
        private void scheduleAhead() {
            while (ahead.size() < readAhead && aheadIndex < blocks.size() && unscheduled > 0) {
                BlockRef block = blocks.get(aheadIndex++);
                long count = Math.min(block.size(), unscheduled);
                unscheduled -= count;
                CompletableFuture<InputStream> stream = new CompletableFuture<>();
                try {
                    executor.execute(() -> {
                        try {
                            stream.complete(store.read(block, 0, count));
                        } catch (IOException | RuntimeException e) {
                            stream.completeExceptionally(e);
                        }
                    });
                } catch (RuntimeException rejected) {
                    stream.completeExceptionally(rejected);
                }
                ahead.add(new Ahead(block, count, stream));
            }
        }

        // Blocks read ahead are closed once they are open: none is waited for here.
        private void closeAhead() {
            for (Ahead opened : ahead) {
                opened.stream().thenAccept(ChunkedStreams::closeQuietly);
            }
            ahead.clear();
        }

        private static InputStream await(Ahead opened) throws IOException {
            return join(opened.stream(), () -> "reading block " + opened.block().id() + " ahead failed");
        }

        @Override
        public int read() throws IOException {
            if (!advanceIfNeeded()) {
                return -1;
            }
            int next = current.read();
            if (next == -1) {
                throw endedEarly();
            }
            consumed(1);
            return next;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            Objects.checkFromIndexSize(offset, length, buffer.length);
            return read(ByteBuffer.wrap(buffer, offset, length));
        }

        @Override
        public int read(ByteBuffer target) throws IOException {
            if (!target.hasRemaining()) {
                return 0;
            }
            if (!advanceIfNeeded()) {
                return -1;
            }
            int count = BufferReads.read(current, target, remainingInCurrent);
            if (count == -1) {
                throw endedEarly();
            }
            consumed(count);
            return count;
        }

        @Override
        public boolean isOpen() {
            return !closed;
        }

        @Override
        public int available() throws IOException {
            if (closed || remainingInCurrent == 0) {
                return 0;
            }
            return (int) Math.min(current.available(), remainingInCurrent);
        }

        @Override
        public void close() throws IOException {
            if (!closed) {
                closed = true;
                remaining = 0;
                remainingInCurrent = 0;
                closeAhead();
                current.close();
            }
        }

        /** Moves to the next block when the current one is done; false at the end of the range. */
        private boolean advanceIfNeeded() throws IOException {
            if (closed) {
                throw new IOException("stream closed");
            }
            if (remaining == 0) {
                return false;
            }
            // Skips over empty blocks, which writeChunks never makes but a caller might pass.
            while (remainingInCurrent == 0) {
                openBlock(0);
            }
            return true;
        }

        private void consumed(int count) {
            remaining -= count;
            remainingInCurrent -= count;
        }

        private EOFException endedEarly() {
            return new EOFException(
                    "block " + currentId + " ended " + remainingInCurrent + " bytes early");
        }
    }
}
