package dev.hangar.metadata.rocksdb;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketNotEmptyException;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.NoSuchBucketException;
import dev.hangar.metadata.NoSuchUploadException;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.UploadListing;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@link MetadataStore} on RocksDB. Every mutation is one {@code WriteBatch}, synced or not as
 * {@link RocksDbConfig#sync()} says; blocks a mutation makes unreachable are queued in the
 * garbage family in that same batch. Read-modify-write mutations run under {@link StoreLocks}.
 * Key layouts are in {@link Keys}, the value format in {@link RecordCodec}.
 *
 * <p>Blocks that the new version of a record still references are never queued, so a metadata
 * only rewrite (say a copy of an object onto itself) that reuses its blocks loses nothing.
 */
@SuppressWarnings("try") // Lock holders are try-with-resources variables that the body never reads.
public final class RocksDbMetadataStore implements MetadataStore {
    private final Database database;
    private final StoreLocks locks = new StoreLocks();
    /** Where the next {@link #pendingGarbage} call starts; only a hint, so unsynchronised. */
    private volatile byte @Nullable [] garbageResume;

    private RocksDbMetadataStore(Database database) {
        this.database = database;
    }

    /**
     * Opens, creating if missing, the store in {@code config.directory()}.
     *
     * @throws dev.hangar.metadata.MetadataStorageException if RocksDB cannot open it, e.g. because
     *     another store has it open
     */
    public static RocksDbMetadataStore open(RocksDbConfig config) {
        return new RocksDbMetadataStore(Database.open(config));
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
            if (anyKeyUnder(Family.OBJECTS, scope)) {
                throw new BucketNotEmptyException("bucket " + name + " holds objects");
            }
            if (anyKeyUnder(Family.UPLOADS, scope)) {
                throw new BucketNotEmptyException("bucket " + name + " holds multipart uploads");
            }
            batch.delete(Family.BUCKETS, key);
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

    // Objects

    @Override
    public Optional<ObjectVersion> getObject(String bucket, String key) {
        try (var held = locks.open()) {
            return readObject(bucket, key, Keys.object(bucket, key));
        }
    }

    @Override
    public Optional<ObjectVersion> putObject(ObjectVersion version) throws NoSuchBucketException {
        byte[] key = Keys.object(version.bucket(), version.key());
        try (var held = locks.key(version.bucket(), version.key()); Database.Batch batch = database.newBatch()) {
            requireBucket(version.bucket());
            Optional<ObjectVersion> previous = readObject(version.bucket(), version.key(), key);
            batch.put(Family.OBJECTS, key, RecordCodec.encodeObject(version));
            previous.ifPresent(replaced ->
                    queue(batch, blocksOf(replaced.content()), referencedIds(blocksOf(version.content()))));
            database.commit(batch);
            return previous;
        }
    }

    @Override
    public Optional<ObjectVersion> deleteObject(String bucket, String key) {
        byte[] recordKey = Keys.object(bucket, key);
        try (var held = locks.key(bucket, key); Database.Batch batch = database.newBatch()) {
            Optional<ObjectVersion> previous = readObject(bucket, key, recordKey);
            if (previous.isPresent()) {
                batch.delete(Family.OBJECTS, recordKey);
                queue(batch, blocksOf(previous.get().content()), Set.of());
                database.commit(batch);
            }
            return previous;
        }
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
        if (!upload.bucket().equals(version.bucket()) || !upload.key().equals(version.key())) {
            throw new IllegalArgumentException("the completed version must have the upload's bucket and key");
        }
        byte[] uploadKey = Keys.upload(upload.bucket(), upload.key(), upload.uploadId());
        byte[] objectKey = Keys.object(version.bucket(), version.key());
        try (var held = locks.key(upload.bucket(), upload.key()); Database.Batch batch = database.newBatch()) {
            if (database.get(Family.UPLOADS, uploadKey) == null) {
                throw new NoSuchUploadException("upload " + upload.uploadId() + " does not exist");
            }
            Set<BlockId> kept = referencedIds(blocksOf(version.content()));
            Optional<ObjectVersion> previous = readObject(version.bucket(), version.key(), objectKey);
            batch.put(Family.OBJECTS, objectKey, RecordCodec.encodeObject(version));
            previous.ifPresent(replaced -> queue(batch, blocksOf(replaced.content()), kept));
            batch.delete(Family.UPLOADS, uploadKey);
            removeParts(batch, upload.uploadId(), kept);
            database.commit(batch);
            return previous;
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
            removeParts(batch, upload.uploadId(), Set.of());
            database.commit(batch);
            return true;
        }
    }

    /** Deletes every part of an upload and queues their blocks, except those in {@code kept}. */
    private void removeParts(Database.Batch batch, String uploadId, Set<BlockId> kept) {
        byte[] scope = Keys.partsOf(uploadId);
        try (Database.Cursor cursor = database.cursor(Family.PARTS, Keys.pastPrefix(scope))) {
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

    // Access keys

    @Override
    public Optional<AccessKey> getAccessKey(String accessKeyId) {
        try (var held = locks.open()) {
            return Optional.ofNullable(database.get(Family.ACCESS_KEYS, Keys.accessKey(accessKeyId)))
                    .map(value -> RecordCodec.decodeAccessKey(accessKeyId, value));
        }
    }

    @Override
    public void putAccessKey(AccessKey key) {
        try (var held = locks.open(); Database.Batch batch = database.newBatch()) {
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

    /** Waits for running operations, then frees every RocksDB resource; later calls throw. */
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
        try (Database.Cursor cursor = database.cursor(family, Keys.pastPrefix(prefix))) {
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
