package dev.hangar.blockstore.packed;

import dev.hangar.blockstore.BlockId;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.rocksdb.BloomFilter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The packed chunks' locations, in a RocksDB of the block store's own (the block store depends on
 * nothing of ours, so it cannot borrow the metadata's database): {@code locations} maps a block
 * id's 16 bytes to its {@link Location}; {@code sealed} lists the segments whose every location is
 * durably here.
 *
 * <p>Adding a location is not synced on its own: a crash can lose it, and the store then finds
 * the record again by walking the segment, which is why only sealed segments are trusted without
 * a walk. Removing one, moving one (compaction) and sealing are synced when {@code syncRemovals}
 * holds, so a deleted chunk does not come back, and a compaction that removes a file has first
 * made durable that nothing points into it.
 */
final class SegmentIndex implements AutoCloseable {
    static {
        RocksDB.loadLibrary();
    }

    private static final byte[] LOCATIONS = "locations".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] SEALED = "sealed".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final RocksDB db;
    private final DBOptions options;
    private final ColumnFamilyOptions familyOptions;
    private final ColumnFamilyHandle defaultFamily;
    private final ColumnFamilyHandle locations;
    private final ColumnFamilyHandle sealed;
    private final WriteOptions unsynced;
    private final WriteOptions removals;
    private final WriteOptions synced;

    private SegmentIndex(
            RocksDB db,
            DBOptions options,
            ColumnFamilyOptions familyOptions,
            List<ColumnFamilyHandle> handles,
            boolean syncRemovals) {
        this.db = db;
        this.options = options;
        this.familyOptions = familyOptions;
        this.defaultFamily = handles.get(0);
        this.locations = handles.get(1);
        this.sealed = handles.get(2);
        this.unsynced = new WriteOptions();
        this.removals = new WriteOptions().setSync(syncRemovals);
        this.synced = new WriteOptions().setSync(true);
    }

    static SegmentIndex open(Path folder, boolean syncRemovals) throws IOException {
        Files.createDirectories(folder);
        DBOptions options = new DBOptions()
                .setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                // Two cores: one flush and one compaction at a time.
                .setMaxBackgroundJobs(2);
        // Point lookups of random ids: whole-key bloom filters spare a miss (a chunk kept as a
        // file of its own) any disk read.
        ColumnFamilyOptions familyOptions = new ColumnFamilyOptions()
                .setTableFormatConfig(new BlockBasedTableConfig().setFilterPolicy(new BloomFilter(10)));
        List<ColumnFamilyDescriptor> descriptors = List.of(
                new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, familyOptions),
                new ColumnFamilyDescriptor(LOCATIONS, familyOptions),
                new ColumnFamilyDescriptor(SEALED, familyOptions));
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        try {
            RocksDB db = RocksDB.open(options, folder.toString(), descriptors, handles);
            return new SegmentIndex(db, options, familyOptions, handles, syncRemovals);
        } catch (RocksDBException e) {
            options.close();
            familyOptions.close();
            throw new IOException("cannot open the chunk index in " + folder, e);
        }
    }

    @Nullable Location get(BlockId id) throws IOException {
        try {
            byte[] value = db.get(locations, RecordHeader.idBytes(id));
            return value == null ? null : Location.decode(value);
        } catch (RocksDBException e) {
            throw new IOException("chunk index read failed", e);
        }
    }

    void put(BlockId id, Location location) throws IOException {
        try {
            db.put(locations, unsynced, RecordHeader.idBytes(id), location.encode());
        } catch (RocksDBException e) {
            throw new IOException("chunk index write failed", e);
        }
    }

    void remove(BlockId id) throws IOException {
        try {
            db.delete(locations, removals, RecordHeader.idBytes(id));
        } catch (RocksDBException e) {
            throw new IOException("chunk index write failed", e);
        }
    }

    /** Points each moved chunk at its new location, in one synced batch. */
    void move(Map<BlockId, Location> moved) throws IOException {
        try (WriteBatch batch = new WriteBatch()) {
            for (Map.Entry<BlockId, Location> entry : moved.entrySet()) {
                batch.put(locations, RecordHeader.idBytes(entry.getKey()), entry.getValue().encode());
            }
            db.write(synced, batch);
        } catch (RocksDBException e) {
            throw new IOException("chunk index write failed", e);
        }
    }

    /**
     * Records that every location in {@code segment} is in the index: first syncs the log, which
     * holds the unsynced additions, then writes the mark, synced.
     */
    void seal(long segment) throws IOException {
        try {
            db.syncWal();
            db.put(sealed, synced, segmentKey(segment), new byte[0]);
        } catch (RocksDBException e) {
            throw new IOException("chunk index write failed", e);
        }
    }

    /** Forgets a removed segment's seal. */
    void forgetSegment(long segment) throws IOException {
        try {
            db.delete(sealed, synced, segmentKey(segment));
        } catch (RocksDBException e) {
            throw new IOException("chunk index write failed", e);
        }
    }

    Set<Long> sealedSegments() {
        Set<Long> segments = new HashSet<>();
        try (RocksIterator iterator = db.newIterator(sealed)) {
            for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
                segments.add(ByteBuffer.wrap(iterator.key()).getLong());
            }
        }
        return segments;
    }

    /** Forces the log, so additions so far survive power loss: a batch-mode sync round. */
    void syncLog() throws IOException {
        try {
            db.syncWal();
        } catch (RocksDBException e) {
            throw new IOException("chunk index sync failed", e);
        }
    }

    /** Visits every location, in id order. */
    void forEach(LocationVisitor visitor) throws IOException {
        try (RocksIterator iterator = db.newIterator(locations)) {
            for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
                visitor.visit(RecordHeader.idOf(iterator.key()), Location.decode(iterator.value()));
            }
        }
    }

    @Override
    public void close() {
        unsynced.close();
        removals.close();
        synced.close();
        defaultFamily.close();
        locations.close();
        sealed.close();
        db.close();
        options.close();
        familyOptions.close();
    }

    private static byte[] segmentKey(long segment) {
        return ByteBuffer.allocate(Long.BYTES).putLong(segment).array();
    }

    @FunctionalInterface
    interface LocationVisitor {
        void visit(BlockId id, Location location) throws IOException;
    }
}
