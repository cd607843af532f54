package dev.hangar.metadata.rocksdb;

import dev.hangar.blockstore.BlockId;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.state.MetadataState;
import dev.hangar.metadata.state.StoredVersion;
import dev.hangar.metadata.listing.ByteKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * {@link MetadataState} on the column families of one RocksDB: reads from the database, writes into
 * one batch that the store commits when the command ends. A version's order is its sequence number
 * ({@link Keys}: the versions of a key sort newest first); the objects family keeps a copy of each
 * key's current version unless it is a delete marker, updated here with every change of the newest.
 * Counters ({@link Counter}) move in the same batch.
 *
 * <p>Keys containing U+0000 exist only as layout 1 records of the objects family ({@link
 * LayoutUpgrade}): they read as a key with one version, which can be removed, never added to.
 */
final class RocksDbState implements MetadataState {
    private final Database database;
    private final Database.Batch batch;

    RocksDbState(Database database, Database.Batch batch) {
        this.database = database;
        this.batch = batch;
    }

    // Reads

    @Override
    public Optional<BucketRecord> bucket(String name) {
        return Optional.ofNullable(database.get(Family.BUCKETS, Keys.bucket(name)))
                .map(value -> RecordCodec.decodeBucket(name, value));
    }

    @Override
    public boolean holdsVersions(String bucket) {
        byte[] scope = Keys.bucketScope(bucket);
        // Objects too: layout 1 keys that the versions family cannot hold are only there.
        return anyKeyUnder(database, Family.VERSIONS, scope) || anyKeyUnder(database, Family.OBJECTS, scope);
    }

    @Override
    public boolean holdsUploads(String bucket) {
        return anyKeyUnder(database, Family.UPLOADS, Keys.bucketScope(bucket));
    }

    @Override
    public Optional<StoredVersion> newest(String bucket, String key) {
        if (!Keys.isVersionable(key)) {
            return legacy(bucket, key);
        }
        return VersionRecords.newest(database, Keys.versionsOfKey(bucket, key)).map(found -> found.stored(bucket, key));
    }

    @Override
    public List<StoredVersion> versions(String bucket, String key) {
        if (!Keys.isVersionable(key)) {
            return legacy(bucket, key).map(List::of).orElse(List.of());
        }
        List<StoredVersion> versions = new ArrayList<>();
        for (VersionRecords.Found found : VersionRecords.all(database, Keys.versionsOfKey(bucket, key))) {
            versions.add(found.stored(bucket, key));
        }
        return versions;
    }

    @Override
    public Optional<StoredVersion> version(String bucket, String key, String versionId) {
        if (!Keys.isVersionable(key)) {
            return legacy(bucket, key).filter(stored -> stored.versionId().equals(versionId));
        }
        return VersionRecords.find(database, Keys.versionsOfKey(bucket, key), versionId)
                .map(found -> found.stored(bucket, key));
    }

    @Override
    public Optional<MultipartUpload> upload(String bucket, String key, String uploadId) {
        return Optional.ofNullable(database.get(Family.UPLOADS, Keys.upload(bucket, key, uploadId)))
                .map(value -> RecordCodec.decodeUpload(bucket, key, uploadId, value));
    }

    @Override
    public List<Part> parts(String uploadId) {
        List<Part> parts = new ArrayList<>();
        byte[] scope = Keys.partsOf(uploadId);
        try (Database.Cursor cursor = database.cursorUnder(Family.PARTS, scope)) {
            for (cursor.seek(scope); cursor.valid(); cursor.next()) {
                parts.add(RecordCodec.decodePart(uploadId, ByteKeys.int32At(cursor.key()), cursor.value()));
            }
        }
        return parts;
    }

    @Override
    public Optional<Part> part(String uploadId, int partNumber) {
        return Optional.ofNullable(database.get(Family.PARTS, Keys.part(uploadId, partNumber)))
                .map(value -> RecordCodec.decodePart(uploadId, partNumber, value));
    }

    @Override
    public Optional<byte[]> config(String bucket, String kind) {
        return Optional.ofNullable(database.get(Family.BUCKET_CONFIGS, Keys.bucketConfig(bucket, kind)))
                .map(RecordCodec::decodeBucketConfig);
    }

    @Override
    public Optional<AccessKey> accessKey(String accessKeyId) {
        return Optional.ofNullable(database.get(Family.ACCESS_KEYS, Keys.accessKey(accessKeyId)))
                .map(value -> RecordCodec.decodeAccessKey(accessKeyId, value));
    }

    @Override
    public Optional<byte[]> serviceConfig(String kind, String name) {
        return Optional.ofNullable(database.get(Family.SERVICE_CONFIGS, Keys.serviceConfig(kind, name)))
                .map(RecordCodec::decodeBucketConfig);
    }

    // Writes

    @Override
    public void putBucket(BucketRecord bucket) {
        batch.put(Family.BUCKETS, Keys.bucket(bucket.name()), RecordCodec.encodeBucket(bucket));
        batch.count(Counter.BUCKETS, 1);
    }

    @Override
    public void removeBucket(String name) {
        batch.delete(Family.BUCKETS, Keys.bucket(name));
        batch.count(Counter.BUCKETS, -1);
        byte[] scope = Keys.bucketScope(name);
        try (Database.Cursor cursor = database.cursorUnder(Family.BUCKET_CONFIGS, scope)) {
            for (cursor.seek(scope); cursor.valid(); cursor.next()) {
                batch.delete(Family.BUCKET_CONFIGS, cursor.key());
            }
        }
    }

    @Override
    public void putConfig(String bucket, String kind, byte[] document) {
        batch.put(Family.BUCKET_CONFIGS, Keys.bucketConfig(bucket, kind), RecordCodec.encodeBucketConfig(document));
    }

    @Override
    public void removeConfig(String bucket, String kind) {
        batch.delete(Family.BUCKET_CONFIGS, Keys.bucketConfig(bucket, kind));
    }

    @Override
    public void addVersion(StoredVersion added, @Nullable StoredVersion previous) {
        ObjectVersion version = added.version();
        byte[] encoded = RecordCodec.encodeObject(version);
        batch.put(Family.VERSIONS, Keys.version(version.bucket(), version.key(), added.order()), encoded);
        Counter.countVersion(batch, version, 1);
        byte[] objectKey = Keys.object(version.bucket(), version.key());
        if (!version.isDeleteMarker()) {
            batch.put(Family.OBJECTS, objectKey, encoded);
        } else if (previous != null && !previous.version().isDeleteMarker()) {
            batch.delete(Family.OBJECTS, objectKey);
        }
    }

    @Override
    public void removeVersion(StoredVersion removed, boolean wasNewest, @Nullable StoredVersion promoted) {
        ObjectVersion version = removed.version();
        byte[] objectKey = Keys.object(version.bucket(), version.key());
        Counter.countVersion(batch, version, -1);
        if (!Keys.isVersionable(version.key())) {
            batch.delete(Family.OBJECTS, objectKey);
            return;
        }
        batch.delete(Family.VERSIONS, Keys.version(version.bucket(), version.key(), removed.order()));
        if (!wasNewest) {
            return;
        }
        if (promoted != null && !promoted.version().isDeleteMarker()) {
            batch.put(Family.OBJECTS, objectKey, RecordCodec.encodeObject(promoted.version()));
        } else if (!version.isDeleteMarker()) {
            batch.delete(Family.OBJECTS, objectKey);
        }
    }

    @Override
    public void replaceVersion(StoredVersion before, ObjectVersion changed, boolean isNewest) {
        byte[] encoded = RecordCodec.encodeObject(changed);
        if (!Keys.isVersionable(changed.key())) {
            batch.put(Family.OBJECTS, Keys.object(changed.bucket(), changed.key()), encoded);
            return;
        }
        batch.put(Family.VERSIONS, Keys.version(changed.bucket(), changed.key(), before.order()), encoded);
        if (isNewest && !changed.isDeleteMarker()) {
            batch.put(Family.OBJECTS, Keys.object(changed.bucket(), changed.key()), encoded);
        }
    }

    @Override
    public void putUpload(MultipartUpload upload, boolean isNew) {
        if (isNew) {
            // Counted once, though storing an upload id again replaces its record.
            batch.count(Counter.UPLOADS, 1);
        }
        batch.put(Family.UPLOADS, Keys.upload(upload.bucket(), upload.key(), upload.uploadId()),
                RecordCodec.encodeUpload(upload));
    }

    @Override
    public void removeUpload(MultipartUpload upload) {
        batch.delete(Family.UPLOADS, Keys.upload(upload.bucket(), upload.key(), upload.uploadId()));
        batch.count(Counter.UPLOADS, -1);
    }

    @Override
    public void putPart(Part part) {
        batch.put(Family.PARTS, Keys.part(part.uploadId(), part.partNumber()), RecordCodec.encodePart(part));
    }

    @Override
    public void removePart(Part part) {
        batch.delete(Family.PARTS, Keys.part(part.uploadId(), part.partNumber()));
    }

    @Override
    public void putAccessKey(AccessKey key) {
        batch.put(Family.ACCESS_KEYS, Keys.accessKey(key.accessKeyId()), RecordCodec.encodeAccessKey(key));
    }

    @Override
    public void removeAccessKey(String accessKeyId) {
        batch.delete(Family.ACCESS_KEYS, Keys.accessKey(accessKeyId));
    }

    // A service's document is stored as a bucket's is: one record format for every opaque document.
    @Override
    public void putServiceConfig(String kind, String name, byte[] document) {
        batch.put(Family.SERVICE_CONFIGS, Keys.serviceConfig(kind, name), RecordCodec.encodeBucketConfig(document));
    }

    @Override
    public void removeServiceConfig(String kind, String name) {
        batch.delete(Family.SERVICE_CONFIGS, Keys.serviceConfig(kind, name));
    }

    @Override
    public void queueGarbage(List<BlockId> ids) {
        for (BlockId id : ids) {
            batch.put(Family.GARBAGE, Keys.garbage(id), new byte[0]);
        }
    }

    private Optional<StoredVersion> legacy(String bucket, String key) {
        return Optional.ofNullable(database.get(Family.OBJECTS, Keys.object(bucket, key)))
                .map(value -> new StoredVersion(RecordCodec.decodeObject(bucket, key, value), 0));
    }

    static boolean anyKeyUnder(Database database, Family family, byte[] prefix) {
        try (Database.Cursor cursor = database.cursorUnder(family, prefix)) {
            cursor.seek(prefix);
            return cursor.valid();
        }
    }
}
