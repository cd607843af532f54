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
import dev.hangar.metadata.StoreLocks;
import dev.hangar.metadata.StoreStatistics;
import dev.hangar.metadata.WriteLogStatistics;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
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
    /** Where the next {@link #pendingGarbage} call starts; only a hint, so unsynchronised. */
    private volatile byte @Nullable [] garbageResume;

    private RocksDbMetadataStore(Database database, VersionSequence sequence) {
        this.database = database;
        this.sequence = sequence;
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

    // Buckets

    @Override
    public Optional<BucketRecord> getBucket(String name) {
        try (var held = locks.open()) {
            return Optional.ofNullable(database.get(Family.BUCKETS, Keys.bucket(name)))
                    .map(value -> RecordCodec.decodeBucket(name, value));
        }
    }

    @Override
    public boolean createBucket(BucketRecord bucket) {
        byte[] key = Keys.bucket(bucket.name());
        try (var held = locks.bucket(bucket.name()); Database.Batch batch = database.newBatch()) {
            if (database.get(Family.BUCKETS, key) != null) {
                return false;
            }
            batch.put(Family.BUCKETS, key, RecordCodec.encodeBucket(bucket));
            batch.count(Counter.BUCKETS, 1);
            database.commit(batch);
            return true;
        }
    }

    @Override
    public boolean deleteBucket(String name) throws BucketNotEmptyException {
        byte[] key = Keys.bucket(name);
        byte[] scope = Keys.bucketScope(name);
        try (var held = locks.bucket(name); Database.Batch batch = database.newBatch()) {
            if (database.get(Family.BUCKETS, key) == null) {
                return false;
            }
            // Objects too: layout 1 keys that the versions family cannot hold are only there.
            if (anyKeyUnder(Family.VERSIONS, scope) || anyKeyUnder(Family.OBJECTS, scope)) {
                throw new BucketNotEmptyException("bucket " + name + " holds object versions");
            }
            if (anyKeyUnder(Family.UPLOADS, scope)) {
                throw new BucketNotEmptyException("bucket " + name + " holds multipart uploads");
            }
            batch.delete(Family.BUCKETS, key);
            batch.count(Counter.BUCKETS, -1);
            try (Database.Cursor cursor = database.cursorUnder(Family.BUCKET_CONFIGS, scope)) {
                for (cursor.seek(scope); cursor.valid(); cursor.next()) {
                    batch.delete(Family.BUCKET_CONFIGS, cursor.key());
                }
            }
            database.commit(batch);
            return true;
        }
    }

    @Override
    public List<BucketRecord> listBuckets() {
        List<BucketRecord> buckets = new ArrayList<>();
        try (var held = locks.open(); Database.Cursor cursor = database.cursor(Family.BUCKETS, null)) {
            for (cursor.seekToFirst(); cursor.valid(); cursor.next()) {
                byte[] key = cursor.key();
                buckets.add(RecordCodec.decodeBucket(Keys.string(key, 0, key.length), cursor.value()));
            }
        }
        return buckets;
    }

    // Objects and their versions

    @Override
    public Optional<ObjectVersion> getObject(String bucket, String key) {
        try (var held = locks.open()) {
            Optional<ObjectVersion> current = readObject(bucket, key, Keys.object(bucket, key));
            if (current.isPresent() || !Keys.isVersionable(key)) {
                return current;
            }
            // Not in objects: the key has no version, or its current version is a delete marker.
            return newestVersion(Keys.versionsOfKey(bucket, key)).map(stored -> stored.decode(bucket, key));
        }
    }

    @Override
    public Optional<ObjectVersion> putObject(ObjectVersion version) throws NoSuchBucketException {
        try {
            return putObject(version, new Precondition.None());
        } catch (PreconditionFailedException impossible) {
            throw new IllegalStateException("no precondition, yet it failed", impossible);
        }
    }

    @Override
    public Optional<ObjectVersion> putObject(ObjectVersion version, Precondition precondition)
            throws NoSuchBucketException, PreconditionFailedException {
        try (var held = locks.key(version.bucket(), version.key()); Database.Batch batch = database.newBatch()) {
            requireBucket(version.bucket());
            Optional<ObjectVersion> replaced = stageNewest(batch, version, precondition);
            database.commit(batch);
            return replaced;
        }
    }

    @Override
    public Optional<ObjectVersion> getVersion(String bucket, String key, String versionId) {
        try (var held = locks.open()) {
            if (!Keys.isVersionable(key)) {
                return readObject(bucket, key, Keys.object(bucket, key))
                        .filter(legacy -> legacy.versionId().equals(versionId));
            }
            return findVersion(Keys.versionsOfKey(bucket, key), versionId).map(found -> found.decode(bucket, key));
        }
    }

    @Override
    public Optional<ObjectVersion> deleteObject(String bucket, String key) {
        return deleteVersion(bucket, key, ObjectVersion.NULL_VERSION);
    }

    @Override
    public Optional<ObjectVersion> deleteVersion(String bucket, String key, String versionId) {
        if (!Keys.isVersionable(key)) {
            return deleteLegacyObject(bucket, key, versionId);
        }
        byte[] versionsOfKey = Keys.versionsOfKey(bucket, key);
        try (var held = locks.key(bucket, key); Database.Batch batch = database.newBatch()) {
            List<StoredVersion> versions = versionsOf(versionsOfKey);
            int index = indexOf(versions, versionId);
            if (index < 0) {
                return Optional.empty();
            }
            StoredVersion stored = versions.remove(index);
            ObjectVersion removed = stored.decode(bucket, key);
            batch.delete(Family.VERSIONS, stored.recordKey());
            Counter.countVersion(batch, removed, -1);
            queue(batch, blocksOf(removed.content()), stillReferenced(removed, versions, bucket, key));
            if (index == 0) {
                // The current version goes: the next newest, if any, takes its place.
                byte[] objectKey = Keys.object(bucket, key);
                StoredVersion promoted = versions.isEmpty() ? null : versions.getFirst();
                if (promoted != null && !promoted.decode(bucket, key).isDeleteMarker()) {
                    batch.put(Family.OBJECTS, objectKey, promoted.value());
                } else if (!removed.isDeleteMarker()) {
                    batch.delete(Family.OBJECTS, objectKey);
                }
            }
            database.commit(batch);
            return Optional.of(removed);
        }
    }

    /**
     * Deletes a layout 1 record whose key contains U+0000, which only the objects family holds
     * (see {@link LayoutUpgrade}); such a key has no other version.
     */
    private Optional<ObjectVersion> deleteLegacyObject(String bucket, String key, String versionId) {
        byte[] objectKey = Keys.object(bucket, key);
        try (var held = locks.key(bucket, key); Database.Batch batch = database.newBatch()) {
            Optional<ObjectVersion> legacy =
                    readObject(bucket, key, objectKey).filter(found -> found.versionId().equals(versionId));
            if (legacy.isPresent()) {
                batch.delete(Family.OBJECTS, objectKey);
                Counter.countVersion(batch, legacy.get(), -1);
                queue(batch, blocksOf(legacy.get().content()), Set.of());
                database.commit(batch);
            }
            return legacy;
        }
    }

    @Override
    public Optional<ObjectVersion> updateVersion(
            String bucket, String key, String versionId, UnaryOperator<ObjectVersion> change) {
        byte[] versionsOfKey = Keys.versionsOfKey(bucket, key);
        try (var held = locks.key(bucket, key); Database.Batch batch = database.newBatch()) {
            Optional<StoredVersion> found = findVersion(versionsOfKey, versionId);
            if (found.isEmpty()) {
                return Optional.empty();
            }
            ObjectVersion before = found.get().decode(bucket, key);
            ObjectVersion after = Objects.requireNonNull(change.apply(before), "changed version");
            requireMetadataChangeOnly(before, after);
            byte[] encoded = RecordCodec.encodeObject(after);
            batch.put(Family.VERSIONS, found.get().recordKey(), encoded);
            if (isNewest(versionsOfKey, found.get()) && !after.isDeleteMarker()) {
                batch.put(Family.OBJECTS, Keys.object(bucket, key), encoded);
            }
            database.commit(batch);
            return Optional.of(after);
        }
    }

    private static void requireMetadataChangeOnly(ObjectVersion before, ObjectVersion after) {
        if (!before.bucket().equals(after.bucket())
                || !before.key().equals(after.key())
                || !before.versionId().equals(after.versionId())) {
            throw new IllegalArgumentException("a version update must not change the bucket, key or version id");
        }
        if (!before.content().equals(after.content())
                || before.size() != after.size()
                || !before.etag().equals(after.etag())
                || !Objects.equals(before.checksum(), after.checksum())
                || !before.partSizes().equals(after.partSizes())) {
            throw new IllegalArgumentException(
                    "a version update changes metadata only, not the content, size, ETag, checksum or part sizes");
        }
    }

    @Override
    public VersionListing listVersions(String bucket, VersionQuery query) {
        byte[] scope = Keys.bucketScope(bucket);
        RollupScan.Page page;
        VersionsStart start;
        try (var held = locks.open()) {
            start = versionsStart(scope, query);
            page = RollupScan.scan(
                    database, Family.VERSIONS, scope, query.prefix(), query.delimiter(), start.recordKey(),
                    query.maxKeys(), Keys::versionKeyEnd);
        }
        List<ListedVersion> versions = new ArrayList<>();
        List<String> commonPrefixes = new ArrayList<>();
        // The newest version of a key is the first one listed, unless the page starts inside the key.
        String previousKey = start.insideKey();
        String nextKeyMarker = null;
        String nextVersionIdMarker = null;
        for (RollupScan.Item item : page.items()) {
            switch (item) {
                case RollupScan.Item.Entry entry -> {
                    String key = Keys.versionKey(entry.recordKey(), scope.length);
                    ObjectVersion version = RecordCodec.decodeObject(bucket, key, entry.value());
                    versions.add(new ListedVersion(version, !key.equals(previousKey)));
                    previousKey = key;
                    nextKeyMarker = key;
                    nextVersionIdMarker = version.versionId();
                }
                case RollupScan.Item.CommonPrefix common -> {
                    commonPrefixes.add(common.prefix());
                    previousKey = null;
                    nextKeyMarker = common.prefix();
                    nextVersionIdMarker = null;
                }
            }
        }
        return page.truncated()
                ? new VersionListing(versions, commonPrefixes, true, nextKeyMarker, nextVersionIdMarker)
                : new VersionListing(versions, commonPrefixes, false, null, null);
    }

    /**
     * Where a version listing starts.
     *
     * @param recordKey the first versions-family key it may return; null if none
     * @param insideKey the key whose newer versions the start skips, if it starts inside one
     */
    private record VersionsStart(byte @Nullable [] recordKey, @Nullable String insideKey) {}

    /** The first versions-family key a listing may return, following S3's marker rules. */
    private VersionsStart versionsStart(byte[] scope, VersionQuery query) {
        String keyMarker = query.keyMarker();
        if (keyMarker == null) {
            // S3 ignores a version id marker without a key marker.
            return new VersionsStart(scope, null);
        }
        byte[] markerKey = Keys.concat(scope, Keys.utf8(keyMarker));
        if (RollupScan.isCommonPrefix(keyMarker, query.prefix(), query.delimiter())) {
            return new VersionsStart(Keys.pastPrefix(markerKey), null);
        }
        // Markers come from clients: spelled out here rather than validated like stored names.
        byte[] versionsOfMarkerKey = Keys.concat(markerKey, new byte[] {Keys.SEPARATOR});
        byte[] pastMarkerKey = Keys.pastPrefix(versionsOfMarkerKey);
        String versionIdMarker = query.versionIdMarker();
        if (versionIdMarker == null || !Keys.isVersionable(keyMarker)) {
            return new VersionsStart(pastMarkerKey, null);
        }
        return findVersion(versionsOfMarkerKey, versionIdMarker)
                .map(marker -> new VersionsStart(Keys.justAfter(marker.recordKey()), keyMarker))
                // The marker version is gone (deleted since the previous page): resume after its key.
                .orElseGet(() -> new VersionsStart(pastMarkerKey, null));
    }

    /**
     * Adds to {@code batch} what makes {@code version} the newest version of its key, if the
     * current one meets the precondition: the version itself, the objects-family copy (or its
     * removal, for a delete marker), and the removal of the {@code "null"} version it replaces.
     * Returns that replaced version. The caller holds the key's lock.
     */
    private Optional<ObjectVersion> stageNewest(Database.Batch batch, ObjectVersion version, Precondition precondition)
            throws PreconditionFailedException {
        String bucket = version.bucket();
        String key = version.key();
        byte[] versionsOfKey = Keys.versionsOfKey(bucket, key);
        boolean replacesNull = version.versionId().equals(ObjectVersion.NULL_VERSION);
        // Only a "null" version needs the older versions: one of them may be the "null" it replaces.
        List<StoredVersion> existing = replacesNull
                ? versionsOf(versionsOfKey)
                : newestVersion(versionsOfKey).map(List::of).orElse(List.of());
        StoredVersion newest = existing.isEmpty() ? null : existing.getFirst();
        ObjectVersion current = newest == null ? null : newest.decode(bucket, key);
        if (!precondition.isMetBy(current)) {
            throw new PreconditionFailedException(
                    "precondition " + precondition + " not met by the current version of " + key);
        }

        long number = sequence.next(newest == null ? 0 : newest.sequence() + 1);
        byte[] encoded = RecordCodec.encodeObject(version);
        batch.put(Family.VERSIONS, Keys.version(versionsOfKey, number), encoded);
        Counter.countVersion(batch, version, 1);
        byte[] objectKey = Keys.object(bucket, key);
        if (!version.isDeleteMarker()) {
            batch.put(Family.OBJECTS, objectKey, encoded);
        } else if (current != null && !current.isDeleteMarker()) {
            batch.delete(Family.OBJECTS, objectKey);
        }
        if (!replacesNull) {
            return Optional.empty();
        }
        int index = indexOf(existing, ObjectVersion.NULL_VERSION);
        if (index < 0) {
            return Optional.empty();
        }
        List<StoredVersion> kept = new ArrayList<>(existing);
        StoredVersion stored = kept.remove(index);
        ObjectVersion replaced = index == 0 ? current : stored.decode(bucket, key);
        batch.delete(Family.VERSIONS, stored.recordKey());
        Counter.countVersion(batch, replaced, -1);
        Set<BlockId> referenced = stillReferenced(replaced, kept, bucket, key);
        referenced.addAll(referencedIds(blocksOf(version.content())));
        queue(batch, blocksOf(replaced.content()), referenced);
        return Optional.of(replaced);
    }

    /**
     * A record of the versions family, decoded on demand: scans for an id read only the id.
     *
     * @param recordKey {@code bucket 0 key 0 sequence}
     */
    private record StoredVersion(byte[] recordKey, byte[] value) {
        long sequence() {
            return Keys.versionSequence(recordKey);
        }

        String versionId() {
            return RecordCodec.peekVersionId(value);
        }

        ObjectVersion decode(String bucket, String key) {
            return RecordCodec.decodeObject(bucket, key, value);
        }
    }

    /**
     * The versions of the key whose version keys start with {@code versionsOfKey}, newest first.
     * Only keys exactly one sequence longer count: a prefix spelled from a client's marker may
     * contain a 0 byte, but no stored key does.
     */
    private List<StoredVersion> versionsOf(byte[] versionsOfKey) {
        List<StoredVersion> versions = new ArrayList<>();
        try (Database.Cursor cursor = database.cursorUnder(Family.VERSIONS, versionsOfKey)) {
            for (cursor.seek(versionsOfKey); cursor.valid(); cursor.next()) {
                byte[] recordKey = cursor.key();
                if (isVersionKeyOf(recordKey, versionsOfKey)) {
                    versions.add(new StoredVersion(recordKey, cursor.value()));
                }
            }
        }
        return versions;
    }

    private Optional<StoredVersion> newestVersion(byte[] versionsOfKey) {
        try (Database.Cursor cursor = database.cursorUnder(Family.VERSIONS, versionsOfKey)) {
            for (cursor.seek(versionsOfKey); cursor.valid(); cursor.next()) {
                byte[] recordKey = cursor.key();
                if (isVersionKeyOf(recordKey, versionsOfKey)) {
                    return Optional.of(new StoredVersion(recordKey, cursor.value()));
                }
            }
        }
        return Optional.empty();
    }

    /** The newest version of the key that has this id. */
    private Optional<StoredVersion> findVersion(byte[] versionsOfKey, String versionId) {
        try (Database.Cursor cursor = database.cursorUnder(Family.VERSIONS, versionsOfKey)) {
            for (cursor.seek(versionsOfKey); cursor.valid(); cursor.next()) {
                byte[] recordKey = cursor.key();
                byte[] value = cursor.value();
                if (isVersionKeyOf(recordKey, versionsOfKey) && RecordCodec.peekVersionId(value).equals(versionId)) {
                    return Optional.of(new StoredVersion(recordKey, value));
                }
            }
        }
        return Optional.empty();
    }

    private boolean isNewest(byte[] versionsOfKey, StoredVersion stored) {
        return newestVersion(versionsOfKey).map(newest -> newest.sequence() == stored.sequence()).orElse(false);
    }

    private static boolean isVersionKeyOf(byte[] recordKey, byte[] versionsOfKey) {
        return recordKey.length == versionsOfKey.length + Long.BYTES;
    }

    private static int indexOf(List<StoredVersion> versions, String versionId) {
        for (int i = 0; i < versions.size(); i++) {
            if (versions.get(i).versionId().equals(versionId)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The blocks of {@code removed} that the remaining versions of its key still reference; the
     * others are decoded only if {@code removed} has blocks at all.
     */
    private static Set<BlockId> stillReferenced(
            ObjectVersion removed, List<StoredVersion> remaining, String bucket, String key) {
        Set<BlockId> referenced = new HashSet<>();
        if (blocksOf(removed.content()).isEmpty()) {
            return referenced;
        }
        for (StoredVersion other : remaining) {
            referenced.addAll(referencedIds(blocksOf(other.decode(bucket, key).content())));
        }
        return referenced;
    }

    @Override
    public ObjectListing listObjects(String bucket, ListQuery query) {
        byte[] scope = Keys.bucketScope(bucket);
        byte[] start = query.after() == null
                ? scope
                : RollupScan.after(
                        Keys.concat(scope, Keys.utf8(query.after())),
                        RollupScan.isCommonPrefix(query.after(), query.prefix(), query.delimiter()));
        RollupScan.Page page;
        try (var held = locks.open()) {
            page = RollupScan.scan(
                    database, Family.OBJECTS, scope, query.prefix(), query.delimiter(), start, query.maxKeys(),
                    recordKey -> recordKey.length);
        }
        List<ObjectVersion> entries = new ArrayList<>();
        List<String> commonPrefixes = new ArrayList<>();
        String lastName = null;
        for (RollupScan.Item item : page.items()) {
            switch (item) {
                case RollupScan.Item.Entry entry -> {
                    String key = Keys.objectKey(entry.recordKey(), scope.length);
                    entries.add(RecordCodec.decodeObject(bucket, key, entry.value()));
                    lastName = key;
                }
                case RollupScan.Item.CommonPrefix common -> {
                    commonPrefixes.add(common.prefix());
                    lastName = common.prefix();
                }
            }
        }
        return new ObjectListing(entries, commonPrefixes, page.truncated(), page.truncated() ? lastName : null);
    }

    // Multipart uploads

    @Override
    public void createUpload(MultipartUpload upload) throws NoSuchBucketException {
        byte[] key = Keys.upload(upload.bucket(), upload.key(), upload.uploadId());
        try (var held = locks.key(upload.bucket(), upload.key()); Database.Batch batch = database.newBatch()) {
            requireBucket(upload.bucket());
            if (database.get(Family.UPLOADS, key) == null) {
                // Counted once, though storing an upload id again replaces its record.
                batch.count(Counter.UPLOADS, 1);
            }
            batch.put(Family.UPLOADS, key, RecordCodec.encodeUpload(upload));
            database.commit(batch);
        }
    }

    @Override
    public Optional<MultipartUpload> getUpload(String bucket, String key, String uploadId) {
        try (var held = locks.open()) {
            return Optional.ofNullable(database.get(Family.UPLOADS, Keys.upload(bucket, key, uploadId)))
                    .map(value -> RecordCodec.decodeUpload(bucket, key, uploadId, value));
        }
    }

    @Override
    public void putPart(MultipartUpload upload, Part part) throws NoSuchUploadException {
        requireSameUpload(upload, part.uploadId());
        byte[] uploadKey = Keys.upload(upload.bucket(), upload.key(), upload.uploadId());
        byte[] partKey = Keys.part(part.uploadId(), part.partNumber());
        try (var held = locks.key(upload.bucket(), upload.key()); Database.Batch batch = database.newBatch()) {
            if (database.get(Family.UPLOADS, uploadKey) == null) {
                // The part's blocks were written for an upload that is gone: nobody else will free them.
                queue(batch, part.blocks(), Set.of());
                if (!batch.isEmpty()) {
                    database.commit(batch);
                }
                throw new NoSuchUploadException("upload " + upload.uploadId() + " does not exist");
            }
            byte[] previous = database.get(Family.PARTS, partKey);
            batch.put(Family.PARTS, partKey, RecordCodec.encodePart(part));
            if (previous != null) {
                Part replaced = RecordCodec.decodePart(part.uploadId(), part.partNumber(), previous);
                queue(batch, replaced.blocks(), referencedIds(part.blocks()));
            }
            database.commit(batch);
        }
    }

    @Override
    public Optional<Part> getPart(String uploadId, int partNumber) {
        try (var held = locks.open()) {
            return Optional.ofNullable(database.get(Family.PARTS, Keys.part(uploadId, partNumber)))
                    .map(value -> RecordCodec.decodePart(uploadId, partNumber, value));
        }
    }

    @Override
    public PartListing listParts(String uploadId, int afterPartNumber, int maxParts) {
        byte[] scope = Keys.partsOf(uploadId);
        List<Part> parts = new ArrayList<>();
        boolean truncated = false;
        if (maxParts <= 0) {
            return new PartListing(parts, false, 0);
        }
        try (var held = locks.open(); Database.Cursor cursor = database.cursor(Family.PARTS, Keys.pastPrefix(scope))) {
            cursor.seek(Keys.part(uploadId, Math.max(afterPartNumber, 0) + 1));
            for (; cursor.valid(); cursor.next()) {
                byte[] key = cursor.key();
                if (parts.size() == maxParts) {
                    truncated = true;
                    break;
                }
                parts.add(RecordCodec.decodePart(uploadId, Keys.partNumber(key), cursor.value()));
            }
        }
        return new PartListing(parts, truncated, truncated ? parts.getLast().partNumber() : 0);
    }

    @Override
    public UploadListing listUploads(
            String bucket,
            String prefix,
            @Nullable String delimiter,
            @Nullable String keyMarker,
            @Nullable String uploadIdMarker,
            int maxUploads) {
        String listedPrefix = prefix == null ? "" : prefix;
        String listedDelimiter = delimiter == null || delimiter.isEmpty() ? null : delimiter;
        byte[] scope = Keys.bucketScope(bucket);
        byte[] start = uploadsStart(scope, listedPrefix, listedDelimiter, keyMarker, uploadIdMarker);
        RollupScan.Page page;
        try (var held = locks.open()) {
            page = RollupScan.scan(
                    database, Family.UPLOADS, scope, listedPrefix, listedDelimiter, start, maxUploads,
                    Keys::uploadKeyEnd);
        }
        List<MultipartUpload> uploads = new ArrayList<>();
        List<String> commonPrefixes = new ArrayList<>();
        String nextKeyMarker = null;
        String nextUploadIdMarker = null;
        for (RollupScan.Item item : page.items()) {
            switch (item) {
                case RollupScan.Item.Entry entry -> {
                    Keys.UploadName name = Keys.uploadName(entry.recordKey());
                    uploads.add(RecordCodec.decodeUpload(name.bucket(), name.key(), name.uploadId(), entry.value()));
                    nextKeyMarker = name.key();
                    nextUploadIdMarker = name.uploadId();
                }
                case RollupScan.Item.CommonPrefix common -> {
                    commonPrefixes.add(common.prefix());
                    nextKeyMarker = common.prefix();
                    nextUploadIdMarker = null;
                }
            }
        }
        return page.truncated()
                ? new UploadListing(uploads, commonPrefixes, true, nextKeyMarker, nextUploadIdMarker)
                : new UploadListing(uploads, commonPrefixes, false, null, null);
    }

    /** The first uploads-family key a listing may return, following S3's marker rules. */
    private static byte @Nullable [] uploadsStart(
            byte[] scope,
            String prefix,
            @Nullable String delimiter,
            @Nullable String keyMarker,
            @Nullable String uploadIdMarker) {
        if (keyMarker == null) {
            // S3 ignores an upload id marker without a key marker.
            return scope;
        }
        if (RollupScan.isCommonPrefix(keyMarker, prefix, delimiter)) {
            return Keys.pastPrefix(Keys.concat(scope, Keys.utf8(keyMarker)));
        }
        // Markers come from clients: spelled out here rather than validated like stored names.
        byte[] uploadsOfMarkerKey = Keys.concat(scope, Keys.utf8(keyMarker), new byte[] {Keys.SEPARATOR});
        if (uploadIdMarker == null) {
            // Keys strictly greater than the marker: past every upload of the marker key itself.
            return Keys.pastPrefix(uploadsOfMarkerKey);
        }
        return Keys.justAfter(Keys.concat(uploadsOfMarkerKey, Keys.utf8(uploadIdMarker)));
    }

    @Override
    public Optional<ObjectVersion> completeUpload(MultipartUpload upload, ObjectVersion version)
            throws NoSuchUploadException {
        try {
            return completeUpload(upload, version, new Precondition.None());
        } catch (PreconditionFailedException impossible) {
            throw new IllegalStateException("no precondition, yet it failed", impossible);
        }
    }

    @Override
    public Optional<ObjectVersion> completeUpload(MultipartUpload upload, ObjectVersion version, Precondition precondition)
            throws NoSuchUploadException, PreconditionFailedException {
        if (!upload.bucket().equals(version.bucket()) || !upload.key().equals(version.key())) {
            throw new IllegalArgumentException("the completed version must have the upload's bucket and key");
        }
        byte[] uploadKey = Keys.upload(upload.bucket(), upload.key(), upload.uploadId());
        try (var held = locks.key(upload.bucket(), upload.key()); Database.Batch batch = database.newBatch()) {
            if (database.get(Family.UPLOADS, uploadKey) == null) {
                throw new NoSuchUploadException("upload " + upload.uploadId() + " does not exist");
            }
            requireCurrentParts(upload.uploadId(), version);
            Optional<ObjectVersion> replaced = stageNewest(batch, version, precondition);
            batch.delete(Family.UPLOADS, uploadKey);
            batch.count(Counter.UPLOADS, -1);
            removeParts(batch, upload.uploadId(), referencedIds(blocksOf(version.content())));
            database.commit(batch);
            return replaced;
        }
    }

    @Override
    public boolean abortUpload(MultipartUpload upload) {
        byte[] uploadKey = Keys.upload(upload.bucket(), upload.key(), upload.uploadId());
        try (var held = locks.key(upload.bucket(), upload.key()); Database.Batch batch = database.newBatch()) {
            if (database.get(Family.UPLOADS, uploadKey) == null) {
                // putPart refuses parts of a missing upload, so there are no parts to remove either.
                return false;
            }
            batch.delete(Family.UPLOADS, uploadKey);
            batch.count(Counter.UPLOADS, -1);
            removeParts(batch, upload.uploadId(), Set.of());
            database.commit(batch);
            return true;
        }
    }

    /**
     * Refuses a completion whose version names a block no current part holds: the part was uploaded again
     * after the caller read it, and the blocks it had were queued for reclamation. Under the key's lock, which
     * {@link #putPart} takes too, so no part changes while this looks.
     */
    private void requireCurrentParts(String uploadId, ObjectVersion version) {
        Set<BlockId> current = new HashSet<>();
        byte[] scope = Keys.partsOf(uploadId);
        try (Database.Cursor cursor = database.cursorUnder(Family.PARTS, scope)) {
            for (cursor.seek(scope); cursor.valid(); cursor.next()) {
                Part part = RecordCodec.decodePart(uploadId, Keys.partNumber(cursor.key()), cursor.value());
                part.blocks().forEach(block -> current.add(block.id()));
            }
        }
        for (BlockId id : referencedIds(blocksOf(version.content()))) {
            if (!current.contains(id)) {
                throw new PartsChangedException("upload " + uploadId + ": block " + id
                        + " is no longer any part's (a part was uploaded again)");
            }
        }
    }

    /** Deletes every part of an upload and queues their blocks, except those in {@code kept}. */
    private void removeParts(Database.Batch batch, String uploadId, Set<BlockId> kept) {
        byte[] scope = Keys.partsOf(uploadId);
        try (Database.Cursor cursor = database.cursorUnder(Family.PARTS, scope)) {
            for (cursor.seek(scope); cursor.valid(); cursor.next()) {
                byte[] key = cursor.key();
                Part part = RecordCodec.decodePart(uploadId, Keys.partNumber(key), cursor.value());
                batch.delete(Family.PARTS, key);
                queue(batch, part.blocks(), kept);
            }
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
        garbageResume = ids.isEmpty() ? null : Keys.justAfter(Keys.garbage(ids.getLast()));
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

    /** Under the bucket's read lock, so that no configuration outlives a bucket being deleted. */
    @Override
    public void putBucketConfig(String bucket, String kind, byte[] document) throws NoSuchBucketException {
        byte[] key = Keys.bucketConfig(bucket, kind);
        try (var held = locks.key(bucket, kind); Database.Batch batch = database.newBatch()) {
            requireBucket(bucket);
            batch.put(Family.BUCKET_CONFIGS, key, RecordCodec.encodeBucketConfig(document));
            database.commit(batch);
        }
    }

    @Override
    public boolean deleteBucketConfig(String bucket, String kind) {
        byte[] key = Keys.bucketConfig(bucket, kind);
        try (var held = locks.key(bucket, kind); Database.Batch batch = database.newBatch()) {
            if (database.get(Family.BUCKET_CONFIGS, key) == null) {
                return false;
            }
            batch.delete(Family.BUCKET_CONFIGS, key);
            database.commit(batch);
            return true;
        }
    }

    // Access keys

    @Override
    public Optional<AccessKey> getAccessKey(String accessKeyId) {
        try (var held = locks.open()) {
            return readAccessKey(accessKeyId);
        }
    }

    @Override
    public void putAccessKey(AccessKey key) {
        try (var held = locks.accessKeys(); Database.Batch batch = database.newBatch()) {
            batch.put(Family.ACCESS_KEYS, Keys.accessKey(key.accessKeyId()), RecordCodec.encodeAccessKey(key));
            database.commit(batch);
        }
    }

    @Override
    public List<AccessKey> listAccessKeys() {
        List<AccessKey> keys = new ArrayList<>();
        try (var held = locks.open(); Database.Cursor cursor = database.cursor(Family.ACCESS_KEYS, null)) {
            for (cursor.seekToFirst(); cursor.valid(); cursor.next()) {
                byte[] key = cursor.key();
                keys.add(RecordCodec.decodeAccessKey(Keys.string(key, 0, key.length), cursor.value()));
            }
        }
        return keys;
    }

    @Override
    public boolean deleteAccessKey(String accessKeyId) {
        try (var held = locks.accessKeys(); Database.Batch batch = database.newBatch()) {
            byte[] key = Keys.accessKey(accessKeyId);
            if (database.get(Family.ACCESS_KEYS, key) == null) {
                return false;
            }
            batch.delete(Family.ACCESS_KEYS, key);
            database.commit(batch);
            return true;
        }
    }

    @Override
    public Optional<AccessKey> updateAccessKey(String accessKeyId, UnaryOperator<AccessKey> change) {
        try (var held = locks.accessKeys(); Database.Batch batch = database.newBatch()) {
            Optional<AccessKey> before = readAccessKey(accessKeyId);
            if (before.isEmpty()) {
                return before;
            }
            AccessKey after = Objects.requireNonNull(change.apply(before.get()), "changed access key");
            if (!after.accessKeyId().equals(accessKeyId)) {
                throw new IllegalArgumentException("an access key update must not change its id");
            }
            batch.put(Family.ACCESS_KEYS, Keys.accessKey(accessKeyId), RecordCodec.encodeAccessKey(after));
            database.commit(batch);
            return Optional.of(after);
        }
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

    private void requireBucket(String bucket) throws NoSuchBucketException {
        if (database.get(Family.BUCKETS, Keys.bucket(bucket)) == null) {
            throw new NoSuchBucketException("bucket " + bucket + " does not exist");
        }
    }

    private boolean anyKeyUnder(Family family, byte[] prefix) {
        try (Database.Cursor cursor = database.cursorUnder(family, prefix)) {
            cursor.seek(prefix);
            return cursor.valid();
        }
    }

    private static void requireSameUpload(MultipartUpload upload, String partUploadId) {
        if (!upload.uploadId().equals(partUploadId)) {
            throw new IllegalArgumentException("part of upload " + partUploadId + " given for " + upload.uploadId());
        }
    }

    private static List<BlockRef> blocksOf(ObjectContent content) {
        return switch (content) {
            case ObjectContent.Inline inline -> List.of();
            case ObjectContent.Blocks blocks -> blocks.blocks();
            case ObjectContent.DeleteMarker marker -> List.of();
        };
    }

    private static Set<BlockId> referencedIds(List<BlockRef> blocks) {
        Set<BlockId> ids = new HashSet<>();
        for (BlockRef block : blocks) {
            ids.add(block.id());
        }
        return ids;
    }

    /** Queues the blocks for reclamation in the batch, except those still referenced. */
    private static void queue(Database.Batch batch, List<BlockRef> blocks, Set<BlockId> stillReferenced) {
        for (BlockRef block : blocks) {
            if (!stillReferenced.contains(block.id())) {
                batch.put(Family.GARBAGE, Keys.garbage(block.id()), new byte[0]);
            }
        }
    }
}
