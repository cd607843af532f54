package dev.hangar.blockstore;

import java.io.IOException;
import java.io.InputStream;

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

    boolean exists(BlockId id) throws IOException;

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
