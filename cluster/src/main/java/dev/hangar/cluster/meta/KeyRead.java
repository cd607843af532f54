package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.Timestamp;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.rocksdb.RecordFormat;
import dev.hangar.metadata.state.StoredVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * What a point read of one object key found: its newest version or all of them ({@link
 * VersionStream}), and the entries a mutation of the key must know besides (its {@code "null"}
 * slot, dead or alive, and a legacy stack to migrate).
 *
 * @param versions live versions, newest first: all of them if {@code complete}, else the newest only
 * @param stamps the timestamps of the changeable fields of the versions read from entries of their
 *     own, by version id (not of the versions of a legacy stack)
 */
record KeyRead(List<StoredVersion> versions, boolean complete, @Nullable Entry nullSlot, @Nullable Entry legacy,
        List<StoredVersion> legacyVersions, Map<String, Map<VersionField, Timestamp>> stamps) {
    /** Entries read per page for the newest version: the legacy entry, the "null" slot and a few versions. */
    private static final int NEWEST_PAGE = 8;
    private static final int ALL_PAGE = 1000;

    KeyRead {
        versions = List.copyOf(versions);
        legacyVersions = List.copyOf(legacyVersions);
        stamps = Map.copyOf(stamps);
    }

    static final KeyRead NONE = new KeyRead(List.of(), true, null, null, List.of(), Map.of());

    Optional<StoredVersion> newest() {
        return versions.isEmpty() ? Optional.empty() : Optional.of(versions.getFirst());
    }

    /**
     * Reads {@code key}'s newest version (one range read of a few of the key's entries, unless the
     * newest versions are dead; of one entry in a never-versioned bucket), or with {@code all} every
     * version. A key holding U+0000 has none.
     */
    static KeyRead read(EntrySource source, String bucket, String key, boolean all) {
        byte[] keyBytes = ObjectSlots.readable(key);
        if (keyBytes == null) {
            return NONE;
        }
        RangeCursor cursor = new RangeCursor(source, MetaKeys.objects(bucket), ObjectSlots.legacy(keyBytes),
                ObjectSlots.pastKey(keyBytes), all ? ALL_PAGE : NEWEST_PAGE, "read object " + key);
        VersionStream stream = VersionStream.of(cursor, bucket, key, keyBytes);
        List<StoredVersion> versions = new ArrayList<>();
        boolean complete = true;
        for (StoredVersion version = stream.next(); version != null; version = stream.next()) {
            versions.add(version);
            if (!all) {
                complete = false;
                break;
            }
        }
        return new KeyRead(versions, complete, stream.nullSlot(), stream.legacy(), stream.legacyVersions(),
                stream.stamps());
    }

    /**
     * The version of {@code key} with this id: the {@code "null"} slot, or the version's index and
     * then its entry (two rounds), each first round with a read of the legacy entry beside it.
     */
    static Optional<ObjectVersion> version(EntrySource source, String bucket, String key, String versionId) {
        byte[] keyBytes = ObjectSlots.readable(key);
        if (keyBytes == null) {
            return Optional.empty();
        }
        byte[] partitionKey = MetaKeys.objects(bucket);
        boolean isNull = versionId.equals(ObjectVersion.NULL_VERSION);
        String what = "read version " + versionId + " of " + key;
        ParallelCalls calls = new ParallelCalls();
        CompletableFuture<Optional<Entry>> legacyRead =
                calls.start(() -> source.get(partitionKey, ObjectSlots.legacy(keyBytes)));
        CompletableFuture<Optional<Entry>> slotRead = calls.start(() -> source.get(partitionKey,
                isNull ? ObjectSlots.nullSlot(keyBytes) : ObjectSlots.index(keyBytes, versionId)));
        Optional<Entry> legacy = Replies.join(legacyRead, what);
        Optional<Entry> slot = Replies.join(slotRead, what);
        calls.counted();
        if (legacy.isPresent()) {
            // Not migrated yet: only the whole key tells which of its versions the stack still holds.
            return read(source, bucket, key, true).versions().stream()
                    .filter(stored -> stored.versionId().equals(versionId))
                    .map(StoredVersion::version)
                    .findFirst();
        }
        if (slot.isEmpty()) {
            return Optional.empty();
        }
        Entry versionEntry = isNull ? slot.get() : Replies.join(source.get(partitionKey,
                ObjectSlots.version(keyBytes, VersionValue.indexOrder(slot.get().value()), versionId)), what).orElse(null);
        if (versionEntry == null || !VersionValue.isVersion(versionEntry.value())) {
            return Optional.empty();
        }
        VersionValue value = VersionValue.decode(versionEntry.value());
        return value.dead() ? Optional.empty()
                : Optional.of(RecordFormat.decodeObject(bucket, key, value.record()));
    }
}
