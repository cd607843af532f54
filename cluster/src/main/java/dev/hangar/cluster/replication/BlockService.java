package dev.hangar.cluster.replication;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.CorruptBlockException;
import dev.hangar.blockstore.NoSuchBlockException;
import dev.hangar.cluster.replication.BlockWire.Status;
import dev.hangar.cluster.rpc.RpcServer;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;
import org.jspecify.annotations.Nullable;

/**
 * Serves this node's local block store to the other nodes: the server side of the {@code blocks.*}
 * messages. Handlers run on the RPC server's handler threads (virtual threads), never on an I/O
 * thread, so they may block on the disk.
 *
 * <p>A gateway (no local store) answers reads with "missing" and refuses writes: it holds no
 * partition, so only a stale layout would send it one.
 */
public final class BlockService {
    // Puts of one id are serialized so that "already there? then acknowledge" is atomic: two resync
    // workers may copy the same block to a new owner at once, and a store must never see two
    // concurrent writes of one id.
    private static final int STRIPES = 64;

    private final @Nullable BlockStore local;
    private final Placement placement;
    private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

    /** What happens after a copy was stored here. */
    @FunctionalInterface
    public interface Placement {
        /**
         * A copy of {@code block} is in the local store now, for a writer that chose the block's
         * replicas under layout {@code layoutVersion}. Called on the storing thread; must not block.
         */
        void stored(BlockRef block, long layoutVersion);
    }

    public BlockService(@Nullable BlockStore local, Placement placement) {
        this.local = local;
        this.placement = placement;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    /** Registers the four handlers; call before the server starts. */
    public void register(RpcServer server) {
        server.register(BlockWire.PUT, (from, payload) -> done(put(BlockWire.put(payload))));
        server.register(BlockWire.GET, (from, payload) -> done(get(BlockWire.get(payload))));
        server.register(BlockWire.EXISTS, (from, payload) ->
                done(BlockWire.reply(exists(BlockWire.id(payload)) ? Status.FOUND : Status.MISSING)));
        server.register(BlockWire.DELETE, (from, payload) -> {
            if (local != null) {
                local.delete(BlockWire.id(payload));
            }
            return done(new byte[0]);
        });
    }

    private byte[] put(BlockWire.Put put) throws IOException {
        store(put.id(), put.crc32c(), put.data(), put.layoutVersion());
        return new byte[0];
    }

    /**
     * Stores a copy in the local store unless it is already there, for a writer that chose the
     * block's replicas under layout {@code layoutVersion}, then tells the {@link Placement}; the one
     * way replicated copies reach the local store, whether they come from a remote coordinator, this
     * node's own writes or its resync worker.
     */
    void store(BlockId id, int crc32c, byte[] data, long layoutVersion) throws IOException {
        storeOnce(id, crc32c, data);
        placement.stored(new BlockRef(id, data.length, crc32c), layoutVersion);
    }

    private void storeOnce(BlockId id, int crc32c, byte[] data) throws IOException {
        BlockStore store = requireLocal();
        if (crc32c(data) != crc32c) {
            throw new CorruptBlockException(id, "received copy does not match its CRC32C");
        }
        ReentrantLock lock = stripes[Math.floorMod(id.hashCode(), STRIPES)];
        lock.lock();
        try {
            if (!store.exists(id)) {
                BlockRef written = store.write(id, new ByteArrayInputStream(data));
                if (written.crc32c() != crc32c) {
                    store.delete(id);
                    throw new CorruptBlockException(id, "stored copy does not match its CRC32C");
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private byte[] get(BlockWire.Get get) throws IOException {
        if (local == null) {
            return BlockWire.reply(Status.MISSING);
        }
        try {
            return BlockWire.reply(Status.FOUND, readLocal(local, get));
        } catch (NoSuchBlockException e) {
            return BlockWire.reply(Status.MISSING);
        } catch (CorruptBlockException | EOFException e) {
            return BlockWire.reply(Status.CORRUPT);
        } catch (IndexOutOfBoundsException e) {
            return BlockWire.reply(Status.OUT_OF_RANGE);
        }
    }

    /** Reads a range of a local block whole into memory, verified when the request says so. */
    static byte[] readLocal(BlockStore store, BlockWire.Get get) throws IOException {
        BlockRef expected = get.expected();
        try (InputStream in = expected == null
                ? store.read(get.id(), get.offset(), get.length())
                : store.read(expected, get.offset(), get.length())) {
            byte[] data = in.readAllBytes();
            if (data.length != get.length()) {
                throw new EOFException("block " + get.id() + " ended early");
            }
            return data;
        }
    }

    private boolean exists(BlockId id) throws IOException {
        return local != null && local.exists(id);
    }

    private BlockStore requireLocal() throws IOException {
        if (local == null) {
            throw new IOException("this node is a gateway and holds no blocks");
        }
        return local;
    }

    static int crc32c(byte[] data) {
        CRC32C crc = new CRC32C();
        crc.update(data);
        return (int) crc.getValue();
    }

    private static CompletableFuture<byte[]> done(byte[] answer) {
        return CompletableFuture.completedFuture(answer);
    }
}
