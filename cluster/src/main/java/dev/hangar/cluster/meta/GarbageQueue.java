package dev.hangar.cluster.meta;

import dev.hangar.blockstore.BlockId;
import dev.hangar.metadata.MetadataStorageException;
import dev.hangar.metadata.listing.ByteKeys;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * This node's queue of blocks to free, in a RocksDB of its own: key the 16 bytes of a block id,
 * empty value. Local because the blocks a mutation frees are freed by the node that made it; the
 * replicated table is no place for a work queue that one node drains.
 *
 * <p>Writes go to the write-ahead log without fsync: a power loss may forget queued ids, which
 * leaves orphan blocks (wasted space, never lost data).
 */
final class GarbageQueue implements AutoCloseable {
    static {
        RocksDB.loadLibrary();
    }

    private static final HexFormat HEX = HexFormat.of();

    private final Options options;
    private final WriteOptions writeOptions;
    private final RocksDB db;
    /** Where the next {@link #pending} starts, so a long drain does not step over its own tombstones; a hint. */
    private volatile byte @Nullable [] resume;

    private GarbageQueue(Options options, RocksDB db) {
        this.options = options;
        this.db = db;
        this.writeOptions = new WriteOptions();
    }

    static GarbageQueue open(Path directory) {
        Options options = new Options().setCreateIfMissing(true);
        try {
            Files.createDirectories(directory);
            return new GarbageQueue(options, RocksDB.open(options, directory.toString()));
        } catch (RocksDBException | IOException e) {
            options.close();
            throw new MetadataStorageException("cannot open the garbage queue at " + directory + ": " + e.getMessage(), e);
        }
    }

    /** Whose record referenced a queued block: the key to check again before the block goes. */
    record Owner(String bucket, String key) {}

    /** A queued block, when it was queued, and whose it was (null: never referenced by any record). */
    record Queued(BlockId id, long queuedAtMillis, @Nullable Owner owner) {}

    void add(Collection<BlockId> ids, @Nullable Owner owner, long nowMillis) {
        if (ids.isEmpty()) {
            return;
        }
        byte[] value = encode(owner, nowMillis);
        try (WriteBatch batch = new WriteBatch()) {
            for (BlockId id : ids) {
                batch.put(HEX.parseHex(id.value()), value);
            }
            db.write(writeOptions, batch);
        } catch (RocksDBException e) {
            throw new MetadataStorageException("cannot queue garbage: " + e.getMessage(), e);
        }
    }

    // Value: the time queued (8 bytes), then the owner's bucket, a 0 byte and its key; empty for an
    // id queued without an owner (and for the ids of queues written before owners were kept).
    private static byte[] encode(@Nullable Owner owner, long nowMillis) {
        if (owner == null) {
            return new byte[0];
        }
        byte[] bucket = ByteKeys.utf8(owner.bucket());
        byte[] key = ByteKeys.utf8(owner.key());
        return ByteBuffer.allocate(Long.BYTES + bucket.length + 1 + key.length)
                .putLong(nowMillis).put(bucket).put((byte) 0).put(key).array();
    }

    private static Queued decode(byte[] id, byte[] value) {
        BlockId block = new BlockId(HEX.formatHex(id));
        if (value.length < Long.BYTES + 1) {
            return new Queued(block, 0, null);
        }
        long queuedAt = ByteBuffer.wrap(value).getLong();
        int separator = Long.BYTES;
        while (value[separator] != 0) {
            separator++;
        }
        return new Queued(block, queuedAt, new Owner(ByteKeys.string(value, Long.BYTES, separator),
                ByteKeys.string(value, separator + 1, value.length)));
    }

    void remove(Collection<BlockId> ids) {
        if (ids.isEmpty()) {
            return;
        }
        try (WriteBatch batch = new WriteBatch()) {
            for (BlockId id : ids) {
                batch.delete(HEX.parseHex(id.value()));
            }
            db.write(writeOptions, batch);
        } catch (RocksDBException e) {
            throw new MetadataStorageException("cannot forget garbage: " + e.getMessage(), e);
        }
    }

    /** Up to {@code max} ids, from after the last one the previous call returned, wrapping around. */
    List<Queued> pending(int max) {
        List<Queued> ids = new ArrayList<>();
        if (max <= 0) {
            return ids;
        }
        byte[] from = resume;
        try (RocksIterator it = db.newIterator()) {
            if (from != null) {
                collect(it, ids, from, null, max);
            }
            if (ids.size() < max) {
                collect(it, ids, null, from, max);
            }
            it.status();
        } catch (RocksDBException e) {
            throw new MetadataStorageException("cannot read garbage: " + e.getMessage(), e);
        }
        resume = ids.isEmpty() ? null : ByteKeys.justAfter(HEX.parseHex(ids.getLast().id().value()));
        return ids;
    }

    private static void collect(RocksIterator it, List<Queued> ids, byte @Nullable [] from, byte @Nullable [] until, int max) {
        if (from == null) {
            it.seekToFirst();
        } else {
            it.seek(from);
        }
        for (; ids.size() < max && it.isValid(); it.next()) {
            byte[] key = it.key();
            if (until != null && Arrays.compareUnsigned(key, until) >= 0) {
                return;
            }
            ids.add(decode(key, it.value()));
        }
    }

    @Override
    public void close() {
        writeOptions.close();
        db.close();
        options.close();
    }
}
