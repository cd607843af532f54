package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.Timestamp;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.listing.ByteKeys;
import dev.hangar.metadata.rocksdb.RecordFormat;
import dev.hangar.metadata.state.StoredVersion;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The live versions of one object key, newest first, read from a {@link RangeCursor} positioned at
 * the key's first entry ({@link ObjectSlots}): a getter of the newest reads one page, a listing
 * reads as far as its page goes, and nobody reads a key's whole history to learn its newest.
 *
 * <p>The versions with an id come out of the table newest first; the {@code "null"} version, read
 * first, is merged in where its order puts it. At equal orders (writes through different nodes
 * with equal stamps) versions with an id come first, by id: {@link #NEWEST_FIRST}. Dead versions
 * are skipped.
 *
 * <p>A key the previous release wrote still has its legacy stack ({@link LegacyStack}); then the
 * whole key is read at once and the stack's versions merged in, except those the key's own entries
 * replace (a {@code "null"} slot, or a version entry of the same id: a migration that a crash
 * interrupted).
 */
final class VersionStream {
    /** The order in which a key's versions list: newest first, then versions with an id before "null", then by id. */
    static final Comparator<StoredVersion> NEWEST_FIRST = Comparator.comparingLong(StoredVersion::order).reversed()
            .thenComparing(stored -> stored.versionId().equals(ObjectVersion.NULL_VERSION))
            .thenComparing(stored -> stored.versionId().getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned);

    private final RangeCursor cursor;
    private final String bucket;
    private final String key;
    private final byte[] keyBytes;
    private final @Nullable Entry legacy;
    private final @Nullable Entry nullSlot;
    private final List<StoredVersion> legacyVersions;
    private final Map<String, Map<VersionField, Timestamp>> stamps = new HashMap<>();
    private @Nullable StoredVersion pendingNull;
    private @Nullable Iterator<StoredVersion> materialized;

    private VersionStream(RangeCursor cursor, String bucket, String key, byte[] keyBytes) {
        this.cursor = cursor;
        this.bucket = bucket;
        this.key = key;
        this.keyBytes = keyBytes;
        Entry legacyEntry = null;
        Entry nullEntry = null;
        for (Entry entry = cursor.peek(); entry != null && ObjectSlots.isOf(entry.sortKey(), keyBytes);
                entry = cursor.peek()) {
            ObjectSlots.Slot slot = ObjectSlots.parse(entry.sortKey());
            if (slot instanceof ObjectSlots.Slot.Legacy) {
                legacyEntry = entry;
            } else if (slot instanceof ObjectSlots.Slot.NullVersion) {
                nullEntry = entry;
            } else {
                break;
            }
            cursor.next();
        }
        this.legacy = legacyEntry;
        this.nullSlot = nullEntry;
        this.pendingNull = nullEntry == null ? null : liveVersion(nullEntry);
        this.legacyVersions = legacyEntry == null ? List.of() : materialize();
    }

    /** The versions of {@code key}, from a cursor at (or before, past the previous key) its first entry. */
    static VersionStream of(RangeCursor cursor, String bucket, String key, byte[] keyBytes) {
        return new VersionStream(cursor, bucket, key, keyBytes);
    }

    /** The next version, older than the previous one; null once the key has no more. */
    @Nullable StoredVersion next() {
        if (materialized != null) {
            return materialized.hasNext() ? materialized.next() : null;
        }
        for (Entry entry = cursor.peek(); entry != null && isIdVersion(entry); entry = cursor.peek()) {
            StoredVersion version = liveVersion(entry);
            if (version == null) {
                cursor.next();
                continue;
            }
            if (pendingNull != null && NEWEST_FIRST.compare(pendingNull, version) < 0) {
                return takeNull();
            }
            cursor.next();
            return version;
        }
        return takeNull();
    }

    /**
     * Moves past the versions of the key at or newer than a version of it, so that {@link #next}
     * continues after it: a listing that resumes after a marker version of order {@code order}.
     * Only for a key without a legacy stack.
     */
    void skipThrough(StoredVersion marker) {
        if (marker.versionId().equals(ObjectVersion.NULL_VERSION)) {
            cursor.seek(ObjectSlots.versionsBelow(keyBytes, marker.order()));
        } else {
            cursor.seek(ByteKeys.justAfter(ObjectSlots.version(keyBytes, marker.order(), marker.versionId())));
        }
        if (pendingNull != null && NEWEST_FIRST.compare(pendingNull, marker) <= 0) {
            pendingNull = null;
        }
    }

    /** The key's legacy stack entry, if it still has one. */
    @Nullable Entry legacy() {
        return legacy;
    }

    /** The key's {@code "null"} slot entry, live or dead. */
    @Nullable Entry nullSlot() {
        return nullSlot;
    }

    /**
     * The live {@code "null"} version, if the key has one and no legacy stack (then {@link #next}
     * has it among the others).
     */
    @Nullable StoredVersion nullVersion() {
        return legacy == null && nullSlot != null ? liveVersion(nullSlot) : null;
    }

    /** The versions of the legacy stack that the key's own entries do not replace, with their orders. */
    List<StoredVersion> legacyVersions() {
        return legacyVersions;
    }

    /**
     * The timestamp of each changeable field of the live versions read so far, by version id: what a
     * metadata change keeps for the fields it does not change ({@link VersionJoin}).
     */
    Map<String, Map<VersionField, Timestamp>> stamps() {
        return Map.copyOf(stamps);
    }

    private @Nullable StoredVersion takeNull() {
        StoredVersion taken = pendingNull;
        pendingNull = null;
        return taken;
    }

    // Reads the rest of the key and merges the legacy stack in: the stack holds at most what one
    // entry could, and exists only until the key's first mutation.
    private List<StoredVersion> materialize() {
        List<StoredVersion> all = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (Entry entry = cursor.peek(); entry != null && isIdVersion(entry); entry = cursor.peek()) {
            cursor.next();
            ids.add(((ObjectSlots.Slot.IdVersion) ObjectSlots.parse(entry.sortKey())).versionId());
            StoredVersion version = liveVersion(entry);
            if (version != null) {
                all.add(version);
            }
        }
        if (pendingNull != null) {
            all.add(pendingNull);
            pendingNull = null;
        }
        List<StoredVersion> kept = new ArrayList<>();
        if (!legacy.isTombstone()) {
            for (LegacyStack.Placed placed : LegacyStack.decode(bucket, key, legacy.value())) {
                String id = placed.version().versionId();
                boolean replaced = id.equals(ObjectVersion.NULL_VERSION) ? nullSlot != null : ids.contains(id);
                if (!replaced) {
                    kept.add(new StoredVersion(placed.version(), placed.order()));
                }
            }
        }
        all.addAll(kept);
        all.sort(NEWEST_FIRST);
        materialized = all.iterator();
        return List.copyOf(kept);
    }

    private boolean isIdVersion(Entry entry) {
        byte[] sortKey = entry.sortKey();
        return ObjectSlots.isOf(sortKey, keyBytes) && sortKey.length > keyBytes.length + 1
                && sortKey[keyBytes.length + 1] == ObjectSlots.VERSION_TAG;
    }

    /** The version an entry holds, null if it is dead (or not a version value). */
    private @Nullable StoredVersion liveVersion(Entry entry) {
        byte[] value = entry.value();
        if (value == null || !VersionValue.isVersion(value)) {
            return null;
        }
        VersionValue decoded = VersionValue.decode(value);
        if (decoded.dead()) {
            return null;
        }
        ObjectVersion version = RecordFormat.decodeObject(bucket, key, decoded.record());
        stamps.put(version.versionId(), decoded.resolvedStamps(entry.timestamp()));
        return new StoredVersion(version, decoded.order());
    }
}
