package dev.hangar.cluster.meta;

import dev.hangar.metadata.ObjectLock;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.RetentionMode;
import java.time.Instant;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The fields of a version that change after it was written, each on its own (the changes of {@code
 * VersionChange}): what {@link VersionJoin} merges field by field, each with its own timestamp. The
 * rest of a version (content, size, ETag, headers, owner) never changes once written.
 *
 * <p>Each field's values are totally ordered ({@link #compare}), only so that two different values
 * stamped with one timestamp (which one node's clock never gives) still merge deterministically.
 * Retention and legal hold are two fields of one {@link ObjectLock}; a version without a lock
 * record has neither.
 */
enum VersionField {
    TAGS(1),
    LEGAL_HOLD(2),
    RETENTION(3),
    ACL(4);

    private static final Comparator<@Nullable String> NULLS_FIRST = Comparator.nullsFirst(Comparator.naturalOrder());
    private static final Comparator<@Nullable Instant> INSTANTS = Comparator.nullsFirst(Comparator.naturalOrder());
    private static final Comparator<@Nullable RetentionMode> MODES = Comparator.nullsFirst(Comparator.naturalOrder());

    /** The field's byte in an encoded value: fixed, whatever the enum's order. */
    final byte id;

    VersionField(int id) {
        this.id = (byte) id;
    }

    static VersionField of(byte id) {
        for (VersionField field : values()) {
            if (field.id == id) {
                return field;
            }
        }
        throw new IllegalArgumentException("unknown version field " + id);
    }

    /** Whether {@code a} and {@code b} hold the same value of this field. */
    boolean same(ObjectVersion a, ObjectVersion b) {
        return compare(a, b) == 0;
    }

    /** Orders the values this field has in {@code a} and {@code b}. */
    int compare(ObjectVersion a, ObjectVersion b) {
        return switch (this) {
            case TAGS -> compareTags(a.tags(), b.tags());
            case LEGAL_HOLD -> compareHold(a.lock(), b.lock());
            case RETENTION -> compareRetention(a.lock(), b.lock());
            case ACL -> NULLS_FIRST.compare(a.acl(), b.acl());
        };
    }

    /** The version without values in any of these fields: what stays the same for the whole life of a version. */
    static ObjectVersion base(ObjectVersion version) {
        return version.withTags(Map.of()).withLock(null).withAcl(null);
    }

    /**
     * {@code base} with each field's value taken from the version {@code sources} names for it (one
     * of the versions being merged), and a lock record if {@code locked}.
     *
     * <p>Whether a version has a lock record at all is not a field of its own: a version gets one
     * with its first retention or legal hold and keeps it (a hold taken off leaves a lock without
     * retention or hold), so merged copies have one if either has.
     */
    static ObjectVersion compose(ObjectVersion base, Map<VersionField, ObjectVersion> sources, boolean locked) {
        ObjectLock retention = sources.get(RETENTION).lock();
        ObjectLock hold = sources.get(LEGAL_HOLD).lock();
        ObjectLock lock = !locked ? null : new ObjectLock(
                retention == null ? null : retention.retentionMode(),
                retention == null ? null : retention.retainUntil(),
                hold != null && hold.legalHold());
        return base.withTags(sources.get(TAGS).tags()).withLock(lock).withAcl(sources.get(ACL).acl());
    }

    // Without a lock record a version has neither retention nor hold: the same values as a lock
    // record without them.
    private static int compareHold(@Nullable ObjectLock a, @Nullable ObjectLock b) {
        return Boolean.compare(a != null && a.legalHold(), b != null && b.legalHold());
    }

    private static int compareRetention(@Nullable ObjectLock a, @Nullable ObjectLock b) {
        int byMode = MODES.compare(a == null ? null : a.retentionMode(), b == null ? null : b.retentionMode());
        return byMode != 0 ? byMode
                : INSTANTS.compare(a == null ? null : a.retainUntil(), b == null ? null : b.retainUntil());
    }

    private static int compareTags(Map<String, String> a, Map<String, String> b) {
        Iterator<Map.Entry<String, String>> left = new TreeMap<>(a).entrySet().iterator();
        Iterator<Map.Entry<String, String>> right = new TreeMap<>(b).entrySet().iterator();
        while (left.hasNext() && right.hasNext()) {
            Map.Entry<String, String> l = left.next();
            Map.Entry<String, String> r = right.next();
            int byName = l.getKey().compareTo(r.getKey());
            if (byName != 0) {
                return byName;
            }
            int byValue = l.getValue().compareTo(r.getValue());
            if (byValue != 0) {
                return byValue;
            }
        }
        return Boolean.compare(left.hasNext(), right.hasNext());
    }
}
