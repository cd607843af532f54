package dev.hangar.metadata.rocksdb;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketNotEmptyException;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.ListedVersion;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.NoSuchBucketException;
import dev.hangar.metadata.NoSuchUploadException;
import dev.hangar.metadata.PartsChangedException;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.Precondition;
import dev.hangar.metadata.PreconditionFailedException;
import dev.hangar.metadata.ServiceConfigNames;
import dev.hangar.metadata.StoreLocks;
import dev.hangar.metadata.StoreStatistics;
import dev.hangar.metadata.WriteLogStatistics;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.state.LogPosition;
import dev.hangar.metadata.state.MetadataStateMachine;
import dev.hangar.metadata.state.Outcome;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.metadata.listing.ByteKeys;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.rocksdb.TickerType;

/**
 * {@link MetadataStore} on RocksDB. Every mutation is one {@code WriteBatch}, synced or not as
 * {@link RocksDbConfig#sync()} says (in batch mode the log is synced every interval, by a thread of
 * the store's or by its owner through {@link #sync}); blocks a mutation makes unreachable are
 * queued in the garbage family in that same batch, and so are the changes to the store-wide
 * {@link Counter}s. Read-modify-write mutations run under {@link StoreLocks}.
 * Key layouts are in {@link Keys}, the value format in {@link RecordCodec}.
 *
 * <p>Blocks that the new version of a record still references are never queued, so a metadata
 * only rewrite (say a copy of an object onto itself) that reuses its blocks loses nothing; nor are
 * blocks that another remaining version of the same key references.
 *
 * <p>Versions: every version is in the versions family, newest first per key (the key ends with
 * an inverted sequence number from {@link VersionSequence}); the objects family holds a copy of
 * the current version of each key whose current version is not a delete marker, so listings of
 * current objects and plain GETs read one family, and never step over old versions or deleted
 * keys. Every mutation of a key's versions updates both in one batch, under the key's lock.
 * Finding a version by id scans the versions of its key, reading only the id of each.
 */
@SuppressWarnings("try") // Lock holders are try-with-resources variables that the body never reads.
public final class RocksDbMetadataStore implements MetadataStore {
    private final Database database;
    private final VersionSequence sequence;
    private final StoreLocks locks = new StoreLocks();
    private final Listings listings;
    /** Where the next {@link #pendingGarbage} call starts; only a hint, so unsynchronised. */
    private volatile byte @Nullable [] garbageResume;

    private RocksDbMetadataStore(Database database, VersionSequence sequence) {
        this.database = database;
        this.sequence = sequence;
        this.listings = new Listings(database, locks);
    }

    /**
     * Opens, creating if missing, the store in {@code config.directory()}.
     *
     * @throws dev.hangar.metadata.MetadataStorageException if RocksDB cannot open it, e.g. because
     *     another store has it open
     */
    public static RocksDbMetadataStore open(RocksDbConfig config) {
        return open(config, InstantSource.system());
    }

    /**
     * Opens the store with the clock that version sequence numbers start from (tests set it), and
     * brings a store of an earlier layout to the current one ({@link LayoutUpgrade}).
     */
    static RocksDbMetadataStore open(RocksDbConfig config, InstantSource clock) {
        // Tickers are cheap counters, and the log's syncs and write groups are metrics.
        return open(config, clock, true);
    }

    /**
     * Opens the store with RocksDB statistics collected, so that tests can read its tickers with
     * {@link #ticker}.
     */
    static RocksDbMetadataStore openWithStatistics(RocksDbConfig config) {
        return open(config, InstantSource.system(), true);
    }

    private static RocksDbMetadataStore open(RocksDbConfig config, InstantSource clock, boolean collectStatistics) {
        Database database = Database.open(config, collectStatistics);
        try {
            VersionSequence sequence = VersionSequence.open(database, clock);
            LayoutUpgrade.run(database, sequence);
            return new RocksDbMetadataStore(database, sequence);
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    // Mutations

    /**
     * Applies the command with {@link MetadataStateMachine} to this database under the command's
     * locks ({@link StoreLocks#forCommand}), in one write batch: all of it or, if refused, nothing
     * but the garbage the refusal queued. Versions are ordered by {@link VersionSequence}, so a
     * later write is always newer, across restarts.
     */
    @Override
    public <R> Outcome<R> apply(MetadataCommand<R> command) {
        try (var held = locks.forCommand(command); Database.Batch batch = database.newBatch()) {
            long stamp = addsVersion(command) ? sequence.next(0) : 0;
            Outcome<R> outcome = MetadataStateMachine.apply(command, stamp, new RocksDbState(database, batch));
            if (!batch.isEmpty()) {
                database.commit(batch);
            }
            return outcome;
        }
    }

    /**
     * Applies the command as the entry of a replicated log at {@code position}, with the {@code stamp} the entry
     * carries (so that every replica orders versions alike), and records the position in the same write batch,
     * refused commands included: after a crash the store has applied exactly the entries up to {@link
     * #appliedPosition}, whatever the sync policy lost. The log, not this store, is what must be durable: the
     * entries past the recorded position are applied again from it.
     */
    public <R> Outcome<R> applyEntry(MetadataCommand<R> command, long stamp, LogPosition position) {
        try (var held = locks.forCommand(command); Database.Batch batch = database.newBatch()) {
            Outcome<R> outcome = MetadataStateMachine.apply(command, stamp, new RocksDbState(database, batch));
            batch.put(Family.META, Keys.META_APPLIED, encodePosition(position));
            database.commit(batch);
            return outcome;
        }
    }

    /** Records that the log entry at {@code position} is applied, for an entry that changes no metadata. */
    public void skipEntry(LogPosition position) {
        try (Database.Batch batch = database.newBatch()) {
            batch.put(Family.META, Keys.META_APPLIED, encodePosition(position));
            database.commit(batch);
        }
    }

    /** The position of the last log entry this store applied ({@link #applyEntry}); empty if none. */
    public Optional<LogPosition> appliedPosition() {
        byte @Nullable [] raw = database.get(Family.META, Keys.META_APPLIED);
        if (raw == null) {
            return Optional.empty();
        }
        ByteBuffer buffer = ByteBuffer.wrap(raw);
        return Optional.of(new LogPosition(buffer.getLong(), buffer.getLong()));
    }

    private static byte[] encodePosition(LogPosition position) {
        return ByteBuffer.allocate(2 * Long.BYTES).putLong(position.term()).putLong(position.index()).array();
    }

    /**
     * Writes a consistent copy of the whole store to {@code target}, which must not exist: a RocksDB checkpoint
     * (hard links to the immutable files where the file system allows), openable as a store of its own. What a
     * replicated log's snapshot is made of.
     */
    public void checkpoint(Path target) {
        database.checkpoint(target);
    }

    private static boolean addsVersion(MetadataCommand<?> command) {
        return command instanceof MetadataCommand.PutVersion || command instanceof MetadataCommand.CompleteUpload;
    }

    // Reads

    @Override
    public Optional<BucketRecord> getBucket(String name) {
        try (var held = locks.open()) {
            return Optional.ofNullable(database.get(Family.BUCKETS, Keys.bucket(name)))
                    .map(value -> RecordCodec.decodeBucket(name, value));
        }
    }

    @Override
    public List<BucketRecord> listBuckets() {
        List<BucketRecord> buckets = new ArrayList<>();
        try (var held = locks.open(); Database.Cursor cursor = database.cursor(Family.BUCKETS, null)) {
            for (cursor.seekToFirst(); cursor.valid(); cursor.next()) {
                byte[] key = cursor.key();
                buckets.add(RecordCodec.decodeBucket(ByteKeys.string(key, 0, key.length), cursor.value()));
            }
        }
        return buckets;
    }

    @Override
    public Optional<ObjectVersion> getObject(String bucket, String key) {
        try (var held = locks.open()) {
            Optional<ObjectVersion> current = readObject(bucket, key, Keys.object(bucket, key));
            if (current.isPresent() || !Keys.isVersionable(key)) {
                return current;
            }
            // Not in objects: the key has no version, or its current version is a delete marker.
            return VersionRecords.newest(database, Keys.versionsOfKey(bucket, key)).map(found -> found.decode(bucket, key));
        }
    }

    @Override
    public Optional<ObjectVersion> getVersion(String bucket, String key, String versionId) {
        try (var held = locks.open()) {
            if (!Keys.isVersionable(key)) {
                return readObject(bucket, key, Keys.object(bucket, key))
                        .filter(legacy -> legacy.versionId().equals(versionId));
            }
            return VersionRecords.find(database, Keys.versionsOfKey(bucket, key), versionId)
                    .map(found -> found.decode(bucket, key));
        }
    }

    @Override
    public ObjectListing listObjects(String bucket, ListQuery query) {
        return listings.listObjects(bucket, query);
    }

    @Override
    public VersionListing listVersions(String bucket, VersionQuery query) {
        return listings.listVersions(bucket, query);
    }

    @Override
    public PartListing listParts(String uploadId, int afterPartNumber, int maxParts) {
        return listings.listParts(uploadId, afterPartNumber, maxParts);
    }

    @Override
    public UploadListing listUploads(String bucket, String prefix, @Nullable String delimiter,
            @Nullable String keyMarker, @Nullable String uploadIdMarker, int maxUploads) {
        return listings.listUploads(bucket, prefix, delimiter, keyMarker, uploadIdMarker, maxUploads);
    }

    @Override
    public Optional<MultipartUpload> getUpload(String bucket, String key, String uploadId) {
        try (var held = locks.open()) {
            return Optional.ofNullable(database.get(Family.UPLOADS, Keys.upload(bucket, key, uploadId)))
                    .map(value -> RecordCodec.decodeUpload(bucket, key, uploadId, value));
        }
    }

    @Override
    public Optional<Part> getPart(String uploadId, int partNumber) {
        try (var held = locks.open()) {
            return Optional.ofNullable(database.get(Family.PARTS, Keys.part(uploadId, partNumber)))
                    .map(value -> RecordCodec.decodePart(uploadId, partNumber, value));
        }
    }

    // Block reclamation queue

    /**
     * Starts after the id the previous call returned last, then wraps around to the front. Forgotten
     * ids leave tombstones until compaction; always starting at the front would step over all of
     * them on every call, making a long drain quadratic. It also lets a drain move past an id whose
     * block cannot be deleted yet.
     */
    @Override
    public List<BlockId> pendingGarbage(int max) {
        List<BlockId> ids = new ArrayList<>();
        if (max <= 0) {
            return ids;
        }
        byte[] resume = garbageResume;
        try (var held = locks.open()) {
            if (resume != null) {
                collectGarbage(ids, resume, null, max);
            }
            if (ids.size() < max) {
                collectGarbage(ids, null, resume, max);
            }
        }
        garbageResume = ids.isEmpty() ? null : ByteKeys.justAfter(Keys.garbage(ids.getLast()));
        return ids;
    }

    /** Adds queued ids from {@code from} (or the front) until {@code until} (or the end), up to max. */
    private void collectGarbage(List<BlockId> ids, byte @Nullable [] from, byte @Nullable [] until, int max) {
        try (Database.Cursor cursor = database.cursor(Family.GARBAGE, until)) {
            if (from == null) {
                cursor.seekToFirst();
            } else {
                cursor.seek(from);
            }
            for (; ids.size() < max && cursor.valid(); cursor.next()) {
                ids.add(Keys.garbageId(cursor.key()));
            }
        }
    }

    @Override
    public void forgetGarbage(Collection<BlockId> ids) {
        if (ids.isEmpty()) {
            return;
        }
        try (var held = locks.open(); Database.Batch batch = database.newBatch()) {
            for (BlockId id : ids) {
                batch.delete(Family.GARBAGE, Keys.garbage(id));
            }
            database.commit(batch);
        }
    }

    @Override
    public void queueGarbage(Collection<BlockId> ids) {
        if (ids.isEmpty()) {
            return;
        }
        try (var held = locks.open(); Database.Batch batch = database.newBatch()) {
            for (BlockId id : ids) {
                batch.put(Family.GARBAGE, Keys.garbage(id), new byte[0]);
            }
            database.commit(batch);
        }
    }

    // Whole-store views

    /** Reads the counters that every mutation updates in its own batch (see {@link Counter}). */
    @Override
    public WriteLogStatistics writeLog() {
        return database.writeLog();
    }

    @Override
    public StoreStatistics statistics() {
        try (var held = locks.open()) {
            return Counter.statistics(database.readCounters());
        }
    }

    /**
     * Scans the versions, objects and parts families over one RocksDB snapshot ({@link
     * BlockReferenceWalk}); holds the open lock throughout, so {@link #close} waits for the walk.
     */
    @Override
    public void forEachBlockReference(Consumer<? super BlockRef> visitor) {
        Objects.requireNonNull(visitor, "visitor");
        try (var held = locks.open()) {
            BlockReferenceWalk.run(database, visitor);
        }
    }

    // Bucket configurations

    @Override
    public Optional<byte[]> getBucketConfig(String bucket, String kind) {
        try (var held = locks.open()) {
            return Optional.ofNullable(database.get(Family.BUCKET_CONFIGS, Keys.bucketConfig(bucket, kind)))
                    .map(RecordCodec::decodeBucketConfig);
        }
    }

    // Service configurations

    @Override
    public Optional<byte[]> getServiceConfig(String kind, String name) {
        try (var held = locks.open()) {
            return Optional.ofNullable(database.get(Family.SERVICE_CONFIGS, Keys.serviceConfig(kind, name)))
                    .map(RecordCodec::decodeBucketConfig);
        }
    }

    @Override
    public SortedMap<String, byte[]> listServiceConfigs(String kind) {
        SortedMap<String, byte[]> documents = ServiceConfigNames.newListing();
        byte[] scope = Keys.serviceConfigsOf(kind);
        try (var held = locks.open(); Database.Cursor cursor = database.cursorUnder(Family.SERVICE_CONFIGS, scope)) {
            for (cursor.seek(scope); cursor.valid(); cursor.next()) {
                byte[] key = cursor.key();
                documents.put(ByteKeys.string(key, scope.length, key.length),
                        RecordCodec.decodeBucketConfig(cursor.value()));
            }
        }
        return documents;
    }

    // Access keys

    @Override
    public Optional<AccessKey> getAccessKey(String accessKeyId) {
        try (var held = locks.open()) {
            return readAccessKey(accessKeyId);
        }
    }

    @Override
    public List<AccessKey> listAccessKeys() {
        List<AccessKey> keys = new ArrayList<>();
        try (var held = locks.open(); Database.Cursor cursor = database.cursor(Family.ACCESS_KEYS, null)) {
            for (cursor.seekToFirst(); cursor.valid(); cursor.next()) {
                byte[] key = cursor.key();
                keys.add(RecordCodec.decodeAccessKey(ByteKeys.string(key, 0, key.length), cursor.value()));
            }
        }
        return keys;
    }

    private Optional<AccessKey> readAccessKey(String accessKeyId) {
        return Optional.ofNullable(database.get(Family.ACCESS_KEYS, Keys.accessKey(accessKeyId)))
                .map(value -> RecordCodec.decodeAccessKey(accessKeyId, value));
    }

    /**
     * In batch mode, syncs the write-ahead log now: every mutation that returned before this call
     * is then on stable storage. Does nothing otherwise (ALWAYS syncs each mutation, NONE leaves it
     * to the operating system).
     *
     * @throws dev.hangar.metadata.MetadataStorageException if the sync fails, now or earlier; every
     *     later mutation then fails too
     */
    @Override
    public void sync() {
        try (var held = locks.open()) {
            database.syncWal();
        }
    }

    /** Syncs of the write-ahead log in batch mode so far, whoever ran them: for tests. */
    long backgroundWalSyncs() {
        return database.backgroundWalSyncs();
    }

    /** A RocksDB ticker of a store opened {@link #openWithStatistics with statistics}: for tests. */
    long ticker(TickerType type) {
        try (var held = locks.open()) {
            return database.ticker(type);
        }
    }

    /** Moves every record into fully compacted SST files, as a long-running store has them: for tests. */
    void flushAndCompact() {
        try (var held = locks.open()) {
            database.flushAndCompact();
        }
    }

    /**
     * Waits for running operations, then (in batch mode, after a last sync of the log) frees every
     * RocksDB resource; later calls throw.
     */
    @Override
    public void close() {
        locks.close(database::close);
    }

    // Helpers

    private Optional<ObjectVersion> readObject(String bucket, String key, byte[] recordKey) {
        return Optional.ofNullable(database.get(Family.OBJECTS, recordKey))
                .map(value -> RecordCodec.decodeObject(bucket, key, value));
    }

}
