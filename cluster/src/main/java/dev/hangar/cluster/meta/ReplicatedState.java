package dev.hangar.cluster.meta;

import dev.hangar.blockstore.BlockId;
import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.Timestamp;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.listing.ByteKeys;
import dev.hangar.metadata.rocksdb.RecordFormat;
import dev.hangar.metadata.state.MetadataState;
import dev.hangar.metadata.state.StoredVersion;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * {@link MetadataState} on the replicated metadata table, for one command: reads go to an {@link
 * EntrySource} (the quorum, or what a blind write learned), writes are buffered ({@link
 * PendingWrites}) and sent by the store once the state machine is done, as one multi-entry write.
 *
 * <p>Bucket records, configurations, access keys and service configurations are read through the {@link SettingsCache},
 * except by the commands that change them ({@code fresh}), which read them from the quorum. The
 * versions of a key are read once per command ({@link KeyRead}): its newest, or all of them when
 * the state machine asks for all.
 *
 * <p>Versions are written as {@link ObjectSlots} lays them out: an added version is its entry (and
 * its index entry, for an id), a removed one is written back dead at its order, a changed one is
 * written at its order with the new record. A key that still has a legacy stack is migrated by its
 * first mutation: the stack's versions become entries of their own, at the orders their places
 * gave them, and the stack's entry a tombstone, in the same write. A new {@code "null"} version is
 * placed above a dead one in its slot, so that a deletion never hides a later write.
 */
final class ReplicatedState implements MetadataState {
    private final EntrySource source;
    private final SettingsCache settings;
    private final boolean fresh;
    private final PendingWrites writes = new PendingWrites();
    private final Map<List<String>, KeyRead> keys = new HashMap<>();
    private final Set<List<String>> migrated = new HashSet<>();
    private final List<BlockId> garbage = new ArrayList<>();
    private final Map<String, Entry> accessKeysRead = new HashMap<>();
    private boolean settingsChanged;

    /**
     * @param fresh whether bucket records, configurations and access keys are read from {@code
     *     source} rather than the settings cache
     */
    ReplicatedState(EntrySource source, SettingsCache settings, boolean fresh) {
        this.source = source;
        this.settings = settings;
        this.fresh = fresh;
    }

    /** The entries the command wrote, all with {@code timestamp}. */
    List<Entry> entries(Timestamp timestamp) {
        return writes.entries(timestamp);
    }

    /** Whether the command wrote bucket records, configurations or access keys (the settings cache must forget them). */
    boolean changedSettings() {
        return settingsChanged;
    }

    /** The blocks the command queued, to be queued once its writes succeeded. */
    List<BlockId> garbage() {
        return List.copyOf(garbage);
    }

    // Reads

    @Override
    public Optional<BucketRecord> bucket(String name) {
        return setting(MetaKeys.buckets(), MetaKeys.bucket(name), "read bucket " + name)
                .map(entry -> RecordFormat.decodeBucket(name, entry.value()));
    }

    @Override
    public boolean holdsVersions(String bucket) {
        RangeCursor cursor = new RangeCursor(source, MetaKeys.objects(bucket), new byte[0], 256,
                "check bucket " + bucket + " for versions");
        // Dead versions and indexes do not count; a key's own entries are skipped once one is found live.
        for (Entry entry = cursor.peek(); entry != null; entry = cursor.peek()) {
            byte[] keyBytes = Arrays.copyOf(entry.sortKey(), ObjectSlots.keyEnd(entry.sortKey()));
            String key = ByteKeys.string(keyBytes, 0, keyBytes.length);
            if (VersionStream.of(cursor, bucket, key, keyBytes).next() != null) {
                return true;
            }
            cursor.seek(ObjectSlots.pastKey(keyBytes));
        }
        return false;
    }

    @Override
    public boolean holdsUploads(String bucket) {
        return new RangeCursor(source, MetaKeys.uploads(bucket), new byte[0], 1, "check bucket " + bucket + " for uploads")
                .peek() != null;
    }

    @Override
    public Optional<StoredVersion> newest(String bucket, String key) {
        KeyRead read = keys.get(List.of(bucket, key));
        if (read == null) {
            read = KeyRead.read(source, bucket, key, false);
            keys.put(List.of(bucket, key), read);
        }
        return read.newest();
    }

    @Override
    public List<StoredVersion> versions(String bucket, String key) {
        KeyRead read = keys.get(List.of(bucket, key));
        if (read == null || !read.complete()) {
            read = KeyRead.read(source, bucket, key, true);
            keys.put(List.of(bucket, key), read);
        }
        return read.versions();
    }

    @Override
    public Optional<MultipartUpload> upload(String bucket, String key, String uploadId) {
        return Replies.join(source.get(MetaKeys.uploads(bucket), MetaKeys.upload(key, uploadId)), "read upload " + uploadId)
                .map(entry -> RecordFormat.decodeUpload(bucket, key, uploadId, entry.value()));
    }

    @Override
    public List<Part> parts(String uploadId) {
        List<Part> parts = new ArrayList<>();
        RangeCursor cursor = new RangeCursor(source, MetaKeys.parts(uploadId), new byte[0], 1000, "read parts of " + uploadId);
        for (Entry entry = cursor.take(); entry != null; entry = cursor.take()) {
            parts.add(RecordFormat.decodePart(uploadId, MetaKeys.partNumber(entry.sortKey()), entry.value()));
        }
        return parts;
    }

    @Override
    public Optional<Part> part(String uploadId, int partNumber) {
        return Replies.join(source.get(MetaKeys.parts(uploadId), MetaKeys.partNumber(partNumber)), "read part " + partNumber)
                .map(entry -> RecordFormat.decodePart(uploadId, partNumber, entry.value()));
    }

    @Override
    public Optional<byte[]> config(String bucket, String kind) {
        return setting(MetaKeys.configs(bucket), MetaKeys.configKind(kind), "read configuration " + kind + " of " + bucket)
                .map(entry -> RecordFormat.decodeBucketConfig(entry.value()));
    }

    @Override
    public Optional<AccessKey> accessKey(String accessKeyId) {
        Optional<Entry> read = setting(MetaKeys.accessKeys(), ByteKeys.utf8(accessKeyId), "read access key " + accessKeyId);
        read.ifPresent(entry -> accessKeysRead.put(accessKeyId, entry));
        return read.map(entry -> AccessKeyValue.decodeKey(accessKeyId, entry.value()));
    }

    @Override
    public Optional<byte[]> serviceConfig(String kind, String name) {
        return setting(MetaKeys.serviceConfigs(kind), MetaKeys.serviceConfigName(name),
                "read service configuration " + kind + " " + name)
                .map(entry -> RecordFormat.decodeBucketConfig(entry.value()));
    }

    // Writes

    /** Also clears configurations that a deletion of an earlier bucket of this name, interrupted by a crash, left. */
    @Override
    public void putBucket(BucketRecord bucket) {
        removeConfigs(bucket.name());
        writes.put(MetaKeys.buckets(), MetaKeys.bucket(bucket.name()), RecordFormat.encodeBucket(bucket));
        settingsChanged = true;
    }

    @Override
    public void removeBucket(String name) {
        writes.delete(MetaKeys.buckets(), MetaKeys.bucket(name));
        removeConfigs(name);
        settingsChanged = true;
    }

    @Override
    public void putConfig(String bucket, String kind, byte[] document) {
        writes.put(MetaKeys.configs(bucket), MetaKeys.configKind(kind), RecordFormat.encodeBucketConfig(document));
        settingsChanged = true;
    }

    @Override
    public void removeConfig(String bucket, String kind) {
        writes.delete(MetaKeys.configs(bucket), MetaKeys.configKind(kind));
        settingsChanged = true;
    }

    @Override
    public void addVersion(StoredVersion added, @Nullable StoredVersion previous) {
        ObjectVersion version = added.version();
        byte[] keyBytes = migrate(version.bucket(), version.key());
        long order = added.order();
        if (version.versionId().equals(ObjectVersion.NULL_VERSION)) {
            order = Math.max(order, deadNullOrder(version.bucket(), version.key()) + 1);
        }
        writeVersion(version.bucket(), keyBytes, version.versionId(),
                VersionValue.live(order, RecordFormat.encodeObject(version)));
    }

    @Override
    public void removeVersion(StoredVersion removed, boolean wasNewest, @Nullable StoredVersion promoted) {
        ObjectVersion version = removed.version();
        byte[] keyBytes = migrate(version.bucket(), version.key());
        writeVersion(version.bucket(), keyBytes, version.versionId(), VersionValue.dead(removed.order()));
    }

    /**
     * Writes the version again at its order, stamping only the fields the change changed with this
     * write's timestamp: the others keep the timestamps they were read with, so that a change of
     * another field through another node, newer than those, wins over them in the merge ({@link
     * VersionJoin}). A version whose stamps were not read (from a legacy stack) is stamped whole.
     */
    @Override
    public void replaceVersion(StoredVersion before, ObjectVersion changed, boolean isNewest) {
        byte[] keyBytes = migrate(changed.bucket(), changed.key());
        KeyRead read = keys.get(List.of(changed.bucket(), changed.key()));
        Map<VersionField, Timestamp> readStamps =
                read == null ? Map.of() : read.stamps().getOrDefault(changed.versionId(), Map.of());
        Map<VersionField, Timestamp> kept = new EnumMap<>(VersionField.class);
        readStamps.forEach((field, stamp) -> {
            if (field.same(before.version(), changed)) {
                kept.put(field, stamp);
            }
        });
        writeVersion(changed.bucket(), keyBytes, changed.versionId(),
                VersionValue.live(before.order(), RecordFormat.encodeObject(changed), kept));
    }

    @Override
    public void putUpload(MultipartUpload upload, boolean isNew) {
        writes.put(MetaKeys.uploads(upload.bucket()), MetaKeys.upload(upload.key(), upload.uploadId()),
                RecordFormat.encodeUpload(upload));
    }

    @Override
    public void removeUpload(MultipartUpload upload) {
        writes.delete(MetaKeys.uploads(upload.bucket()), MetaKeys.upload(upload.key(), upload.uploadId()));
    }

    @Override
    public void putPart(Part part) {
        writes.put(MetaKeys.parts(part.uploadId()), MetaKeys.partNumber(part.partNumber()), RecordFormat.encodePart(part));
    }

    @Override
    public void removePart(Part part) {
        writes.delete(MetaKeys.parts(part.uploadId()), MetaKeys.partNumber(part.partNumber()));
    }

    /**
     * A key this command read is changed: only the fields it changed are stamped with this write's
     * timestamp, a grant it took away becomes a revocation, and the rest keeps the stamps read
     * ({@link AccessKeyValue#changed}), so that changes of other fields through other nodes are
     * kept by the merge. A key not read (put whole) is a new incarnation, every field stamped with
     * the write.
     */
    @Override
    public void putAccessKey(AccessKey key) {
        Entry read = accessKeysRead.get(key.accessKeyId());
        AccessKeyValue value = read == null ? AccessKeyValue.put(key) : AccessKeyValue.changed(
                AccessKeyValue.decode(key.accessKeyId(), read.value()).resolve(read.timestamp()), key);
        writes.put(MetaKeys.accessKeys(), ByteKeys.utf8(key.accessKeyId()), value.encode());
        settingsChanged = true;
    }

    @Override
    public void removeAccessKey(String accessKeyId) {
        writes.delete(MetaKeys.accessKeys(), ByteKeys.utf8(accessKeyId));
        settingsChanged = true;
    }

    // Stored as a bucket's configuration is (one record format for opaque documents), merged as one: last writer
    // wins, and a removal is a tombstone.
    @Override
    public void putServiceConfig(String kind, String name, byte[] document) {
        writes.put(MetaKeys.serviceConfigs(kind), MetaKeys.serviceConfigName(name),
                RecordFormat.encodeBucketConfig(document));
        settingsChanged = true;
    }

    @Override
    public void removeServiceConfig(String kind, String name) {
        writes.delete(MetaKeys.serviceConfigs(kind), MetaKeys.serviceConfigName(name));
        settingsChanged = true;
    }

    @Override
    public void queueGarbage(List<BlockId> ids) {
        garbage.addAll(ids);
    }

    // Helpers

    private Optional<Entry> setting(byte[] partitionKey, byte[] sortKey, String what) {
        CompletableFuture<Optional<Entry>> read =
                fresh ? source.get(partitionKey, sortKey) : settings.get(partitionKey, sortKey);
        return Replies.join(read, what);
    }

    private void writeVersion(String bucket, byte[] keyBytes, String versionId, VersionValue value) {
        byte[] partitionKey = MetaKeys.objects(bucket);
        if (versionId.equals(ObjectVersion.NULL_VERSION)) {
            writes.putVersion(partitionKey, ObjectSlots.nullSlot(keyBytes), value);
            return;
        }
        writes.putVersion(partitionKey, ObjectSlots.version(keyBytes, value.order(), versionId), value);
        if (value.dead()) {
            writes.delete(partitionKey, ObjectSlots.index(keyBytes, versionId));
        } else {
            writes.put(partitionKey, ObjectSlots.index(keyBytes, versionId), VersionValue.index(value.order()));
        }
    }

    /**
     * The key as sort key bytes, after writing its legacy stack's versions as entries of their own
     * if it has one (once per command): the state machine's changes then apply on top of them.
     */
    private byte[] migrate(String bucket, String key) {
        byte[] keyBytes = ObjectSlots.writable(key);
        List<String> id = List.of(bucket, key);
        KeyRead read = keys.get(id);
        if (read == null || read.legacy() == null || !migrated.add(id)) {
            return keyBytes;
        }
        for (StoredVersion stored : read.legacyVersions()) {
            writeVersion(bucket, keyBytes, stored.versionId(),
                    VersionValue.live(stored.order(), RecordFormat.encodeObject(stored.version())));
        }
        writes.delete(MetaKeys.objects(bucket), ObjectSlots.legacy(keyBytes));
        return keyBytes;
    }

    /** The order of a dead "null" version in the key's slot, -1 if the slot holds none. */
    private long deadNullOrder(String bucket, String key) {
        KeyRead read = keys.get(List.of(bucket, key));
        Entry slot = read == null ? null : read.nullSlot();
        if (slot == null || slot.value() == null || !VersionValue.isVersion(slot.value())
                || !VersionValue.isDead(slot.value())) {
            return -1;
        }
        return VersionValue.order(slot.value());
    }

    private void removeConfigs(String bucket) {
        RangeCursor cursor = new RangeCursor(source, MetaKeys.configs(bucket), new byte[0], 1000,
                "read configurations of bucket " + bucket);
        for (Entry entry = cursor.take(); entry != null; entry = cursor.take()) {
            writes.delete(entry.partitionKey(), entry.sortKey());
        }
    }
}
