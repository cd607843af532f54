package dev.hangar.blockstore;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.Consumer;

/**
 * Stores blocks: immutable byte strings of bounded size under a {@link BlockId}.
 *
 * <p>All methods block and must be called off any event loop. A block becomes visible to {@link
 * #read} only once {@link #write} has returned, complete: a crash during a write leaves either
 * nothing or an unreferenced temporary that the backend cleans up on its next start.
 *
 * <p>Implementations are safe for concurrent use on different ids. Ids are random and never reused,
 * so writing an id that is already stored, or deleting a block while it is being written, is not
 * part of the contract. Once closed, a store refuses every operation with {@link
 * IllegalStateException}; closing twice is harmless. {@link BlockStores} builds the backends, and
 * {@code AbstractBlockStoreContractTest} (in the test jar) checks this contract for each of them.
 */
public interface BlockStore extends AutoCloseable {

    /**
     * Writes the whole stream as one block. When this returns, the block is durable according to
     * the backend's {@link SyncPolicy}. If this throws, no block is stored under {@code id}.
     *
     * <p>The stream is read to its end but not closed: it belongs to the caller.
     */
    BlockRef write(BlockId id, InputStream content) throws IOException;

    /**
     * Streams {@code length} bytes of a block from {@code offset}. Bytes are read lazily, so the
     * first ones are available before the rest of the block has been read from storage. The caller
     * closes the returned stream.
     *
     * @throws NoSuchBlockException if the block is not stored
     * @throws IndexOutOfBoundsException if {@code [offset, offset + length)} is outside the block
     */
    InputStream read(BlockId id, long offset, long length) throws IOException;

    /**
     * Streams a range of a block like {@link #read(BlockId, long, long)}, checking the whole block
     * against {@code block}'s size and CRC32C: a mismatch is thrown as {@link
     * CorruptBlockException} instead of the end of the stream. A partial range costs a read of the
     * whole block. This is how object data is read.
     *
     * @throws NoSuchBlockException if the block is not stored
     * @throws IndexOutOfBoundsException if the range is outside {@code block}
     */
    default InputStream read(BlockRef block, long offset, long length) throws IOException {
        return VerifiedRange.open(this, block, offset, length, () -> {});
    }

    /**
     * How many blocks past the one being read a chained read ({@link ChunkedStreams#openRange(BlockStore,
     * java.util.List, long, long, int, java.util.concurrent.Executor)}) should open ahead of time: 0
     * for stores that open a block at once (local files), more for stores whose read of a block waits
     * for a network round trip, so that a large object's blocks do not pay one round trip each in
     * sequence. Each block read ahead may be held in memory until the stream reaches it.
     */
    default int readAhead() {
        return 0;
    }

    /**
     * How many block writes of one stream a chunked write ({@link ChunkedStreams#writeChunks(BlockStore,
     * InputStream, int, int, java.util.concurrent.Executor)}) should keep running while it reads the
     * next chunk: 0 for stores whose writes stream into a local file, more for stores whose write of a
     * block waits for a network round trip, so that a large object's blocks do not pay one round trip
     * each in sequence. Each block written behind is held in memory until its write returns.
     */
    default int writeBehind() {
        return 0;
    }

    /** Reads a whole block and says whether it is there and matches its size and CRC32C. */
    default BlockHealth check(BlockRef block) throws IOException {
        return VerifiedRange.check(this, block, () -> {});
    }

    boolean exists(BlockId id) throws IOException;

    /**
     * Visits every stored block, in no particular order; weakly consistent with concurrent writes
     * and deletes. For a scrub that looks for blocks nothing references.
     *
     * @throws UnsupportedOperationException if the backend cannot list its blocks
     */
    default void forEachBlock(Consumer<StoredBlock> visitor) throws IOException {
        throw new UnsupportedOperationException(this + " cannot list its blocks");
    }

    /**
     * Gives back the space of deleted blocks where deleting does not do so by itself (packed
     * segment files), never losing a live block, even if interrupted by a crash. Safe to run
     * beside reads, writes and deletes; passes do not overlap.
     */
    default CompactionReport compact() throws IOException {
        return CompactionReport.NOTHING;
    }

    /** Counters for metrics; {@link BlockStoreStatistics#NONE} for a backend without any. */
    default BlockStoreStatistics statistics() {
        return BlockStoreStatistics.NONE;
    }

    /** Removes a block; removing one that is not stored is not an error. */
    void delete(BlockId id) throws IOException;

    /**
     * Forces every acknowledged write that is not yet on stable storage; a no-op when writes are
     * synced as they happen (or durability is not this store's to give). A store that batches its
     * syncs ({@link SyncPolicy#batch}) and was opened without a sync thread of its own relies on
     * its owner to call this at least every interval: a node calls it before it syncs the metadata
     * that points to the blocks.
     *
     * @throws IOException if forcing failed; the store then fails every later write, since blocks
     *     it acknowledged may not be on stable storage
     */
    default void sync() throws IOException {}

    @Override
    void close() throws IOException;
}
