package dev.hangar.blockstore.memory;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.BlockStores;
import dev.hangar.blockstore.NoSuchBlockException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.time.Instant;
import java.util.function.Consumer;
import dev.hangar.blockstore.StoredBlock;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;

/**
 * Keeps blocks as byte arrays in the heap, for tests. A block is read whole before it is stored, so
 * it becomes visible only complete, as with every other backend; the arrays are never handed out,
 * so a stored block cannot change.
 *
 * <p>Build it through {@link BlockStores#inMemory}; it is public only so that the factory, in
 * another package, can reach it.
 */
public final class InMemoryBlockStore implements BlockStore {
    private final Map<BlockId, byte[]> blocks = new ConcurrentHashMap<>();
    private final Map<BlockId, Instant> writtenAt = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public InMemoryBlockStore() {}

    @Override
    public BlockRef write(BlockId id, InputStream content) throws IOException {
        ensureOpen();
        byte[] bytes = content.readAllBytes();
        CRC32C checksum = new CRC32C();
        checksum.update(bytes);
        writtenAt.put(id, Instant.now());
        blocks.put(id, bytes);
        return new BlockRef(id, bytes.length, (int) checksum.getValue());
    }

    @Override
    public InputStream read(BlockId id, long offset, long length) throws IOException {
        ensureOpen();
        byte[] bytes = blocks.get(id);
        if (bytes == null) {
            throw new NoSuchBlockException(id);
        }
        Objects.checkFromIndexSize(offset, length, bytes.length);
        return new ByteArrayInputStream(bytes, (int) offset, (int) length);
    }

    @Override
    public boolean exists(BlockId id) {
        ensureOpen();
        return blocks.containsKey(id);
    }

    @Override
    public void delete(BlockId id) {
        ensureOpen();
        blocks.remove(id);
        writtenAt.remove(id);
    }

    @Override
    public void forEachBlock(Consumer<StoredBlock> visitor) {
        ensureOpen();
        blocks.forEach((id, bytes) ->
                visitor.accept(new StoredBlock(id, bytes.length, writtenAt.getOrDefault(id, Instant.EPOCH))));
    }

    /** Overwrites one byte of a stored block, as a failing disk would: for tests of verification. */
    public void corrupt(BlockId id, int offset) {
        byte[] bytes = blocks.get(id);
        if (bytes == null) {
            throw new IllegalArgumentException("no block " + id);
        }
        bytes[offset] ^= 0x5a;
    }

    /** Refuses further use; the blocks are left to the garbage collector with the store. */
    @Override
    public void close() {
        closed = true;
    }

    @Override
    public String toString() {
        return "InMemoryBlockStore[" + blocks.size() + " blocks]";
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("block store is closed");
        }
    }
}
