package dev.hangar.cluster.meta;

import dev.hangar.blockstore.BlockId;
import dev.hangar.metadata.MetadataStorageException;
import java.io.IOException;
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

    void add(Collection<BlockId> ids) {
        if (ids.isEmpty()) {
            return;
        }
        try (WriteBatch batch = new WriteBatch()) {
            for (BlockId id : ids) {
                batch.put(HEX.parseHex(id.value()), new byte[0]);
            }
            db.write(writeOptions, batch);
        } catch (RocksDBException e) {
            throw new MetadataStorageException("cannot queue garbage: " + e.getMessage(), e);
        }
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
    List<BlockId> pending(int max) {
        List<BlockId> ids = new ArrayList<>();
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
        resume = ids.isEmpty() ? null : MetaKeys.justAfter(HEX.parseHex(ids.getLast().value()));
        return ids;
    }

    private static void collect(RocksIterator it, List<BlockId> ids, byte @Nullable [] from, byte @Nullable [] until, int max) {
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
            ids.add(new BlockId(HEX.formatHex(key)));
        }
    }

    @Override
    public void close() {
        writeOptions.close();
        db.close();
        options.close();
    }
}
