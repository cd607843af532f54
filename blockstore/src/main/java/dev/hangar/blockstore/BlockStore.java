package dev.hangar.blockstore;

import java.io.IOException;
import java.io.InputStream;

/**
 * Stores blocks: immutable byte strings of bounded size under a {@link BlockId}.
 *
 * <p>All methods block and must be called off any event loop. A block becomes visible to {@link
 * #read} only once {@link #write} has returned, complete: a crash during a write leaves either
 * nothing or an unreferenced temporary that the backend cleans up on its next start.
 */
public interface BlockStore extends AutoCloseable {

    /**
     * Writes the whole stream as one block. When this returns, the block is durable according to the
     * backend's {@link SyncPolicy}.
     */
    BlockRef write(BlockId id, InputStream content) throws IOException;

    /**
     * Streams {@code length} bytes of a block from {@code offset}. Bytes are read lazily, so the
     * first ones are available before the rest of the block has been read from storage.
     *
     * @throws NoSuchBlockException if the block is not stored
     */
    InputStream read(BlockId id, long offset, long length) throws IOException;

    boolean exists(BlockId id) throws IOException;

    /** Removes a block; removing one that is not stored is not an error. */
    void delete(BlockId id) throws IOException;

    @Override
    void close() throws IOException;
}
