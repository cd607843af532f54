package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.Timestamp;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.rocksdb.RecordFormat;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Merges two live copies of one version field by field: a last-writer-wins register per {@link
 * VersionField}, so that a change of the tags through one node and of the legal hold through
 * another are both kept, where whole-value last writer wins kept only the later.
 *
 * <p>Two live values of one version slot at one order are copies of one version when their records
 * agree outside the changeable fields (the base). Each field then takes the value with the greater
 * timestamp (a field a value does not stamp was written at its entry's timestamp), ties broken by
 * the field's value; the merged version has a lock record if either copy has one ({@link
 * VersionField#compose}); the merged entry has the greater of the two entry timestamps, and names
 * only the field stamps that differ from it. That is a join: commutative, associative and
 * idempotent (per field a maximum under a total order, and an or for the lock record), and its
 * encoding depends on the merged value only.
 *
 * <p>Two live values at one order whose bases differ are two different versions that got one order
 * (two {@code "null"} versions stamped alike through two nodes): they are not mixed, the greater
 * base wins whole, so that every replica keeps the same one.
 */
final class VersionJoin {
    private VersionJoin() {}

    /** The merge of two entries of one version slot if both are live copies at one order; null otherwise. */
    static @Nullable Entry join(Entry first, Entry second) {
        byte[] a = first.value();
        byte[] b = second.value();
        if (a == null || b == null || !VersionValue.isVersion(a) || !VersionValue.isVersion(b)
                || VersionValue.order(a) != VersionValue.order(b) || VersionValue.isDead(a) || VersionValue.isDead(b)) {
            return null;
        }
        VersionValue left = VersionValue.decode(a);
        VersionValue right = VersionValue.decode(b);
        ObjectVersion leftVersion = decode(left);
        ObjectVersion rightVersion = decode(right);
        if (leftVersion == null || rightVersion == null) {
            // A record that does not decode (never written by this code) has no fields to merge:
            // below any that does, and among themselves by last writer wins (the rule's order).
            return leftVersion == rightVersion ? null : (leftVersion != null ? first : second);
        }
        ObjectVersion base = VersionField.base(leftVersion);
        int byBase = Arrays.compareUnsigned(RecordFormat.encodeObject(base),
                RecordFormat.encodeObject(VersionField.base(rightVersion)));
        if (byBase != 0) {
            return byBase > 0 ? first : second;
        }
        Timestamp timestamp = first.timestamp().compareTo(second.timestamp()) >= 0 ? first.timestamp() : second.timestamp();
        Map<VersionField, Timestamp> leftStamps = left.resolvedStamps(first.timestamp());
        Map<VersionField, Timestamp> rightStamps = right.resolvedStamps(second.timestamp());
        Map<VersionField, ObjectVersion> sources = new EnumMap<>(VersionField.class);
        Map<VersionField, Timestamp> stamps = new EnumMap<>(VersionField.class);
        for (VersionField field : VersionField.values()) {
            int byStamp = leftStamps.get(field).compareTo(rightStamps.get(field));
            boolean leftWins = byStamp > 0 || (byStamp == 0 && field.compare(leftVersion, rightVersion) >= 0);
            Timestamp stamp = leftWins ? leftStamps.get(field) : rightStamps.get(field);
            sources.put(field, leftWins ? leftVersion : rightVersion);
            if (!stamp.equals(timestamp)) {
                stamps.put(field, stamp);
            }
        }
        boolean locked = leftVersion.lock() != null || rightVersion.lock() != null;
        byte[] record = RecordFormat.encodeObject(VersionField.compose(base, sources, locked));
        return Entry.of(first.partitionKey(), first.sortKey(),
                VersionValue.live(left.order(), record, stamps).encode(), timestamp);
    }

    // The merge needs the fields only: bucket and key are in the entry's keys, not in the record.
    private static @Nullable ObjectVersion decode(VersionValue value) {
        try {
            return RecordFormat.decodeObject("", "", value.record());
        } catch (RuntimeException e) {
            return null;
        }
    }
}
