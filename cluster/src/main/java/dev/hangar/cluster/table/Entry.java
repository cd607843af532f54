package dev.hangar.cluster.table;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One versioned record of a table, and the merge rule that makes replicas converge.
 *
 * <p><b>Merge rule.</b> Of two entries for the same (partition key, sort key), the one with the
 * greater {@link Timestamp} wins: wall milliseconds, then the logical counter, then the issuing
 * node's id. The order is total and every replica applies the same comparison, so replicas that saw
 * the same set of writes, in any order and any number of times, hold the same winner (merge is
 * commutative, associative and idempotent). Equal timestamps come from one node's clock only when a
 * caller supplied its own timestamp twice; then a tombstone beats a value and otherwise the larger
 * value bytes win, so that even that case stays deterministic.
 *
 * <p>A delete is a tombstone (a null value) with a timestamp, merged like any write: it beats older
 * values and loses to newer ones. Tombstones are kept for a GC delay and then purged; a replica
 * that was away longer than that delay may bring the deleted value back through anti-entropy, so
 * the delay must exceed the longest outage after which a node rejoins with its old data.
 *
 * @param partitionKey picks the partition (e.g. a bucket name: one bucket's entries on one replica set)
 * @param sortKey orders entries within a partition key (unsigned bytewise)
 * @param value the payload, or null for a tombstone
 * @param timestamp when the write happened, by the writer's hybrid logical clock
 */
public record Entry(byte[] partitionKey, byte[] sortKey, byte @Nullable [] value, Timestamp timestamp) {
    public Entry {
        Objects.requireNonNull(partitionKey, "partitionKey");
        Objects.requireNonNull(sortKey, "sortKey");
        Objects.requireNonNull(timestamp, "timestamp");
    }

    /** A live entry. */
    public static Entry of(byte[] partitionKey, byte[] sortKey, byte[] value, Timestamp timestamp) {
        return new Entry(partitionKey, sortKey, Objects.requireNonNull(value, "value"), timestamp);
    }

    /** A deletion marker. */
    public static Entry tombstone(byte[] partitionKey, byte[] sortKey, Timestamp timestamp) {
        return new Entry(partitionKey, sortKey, null, timestamp);
    }

    public boolean isTombstone() {
        return value == null;
    }

    /** Whether {@code other} addresses the same record. */
    public boolean sameKey(Entry other) {
        return Arrays.equals(partitionKey, other.partitionKey) && Arrays.equals(sortKey, other.sortKey);
    }

    /** The winner of this entry and {@code other} under the merge rule; both must have the same key. */
    public Entry merge(Entry other) {
        if (!sameKey(other)) {
            throw new IllegalArgumentException("cannot merge entries of different keys: " + this + " and " + other);
        }
        return wins(other) ? other : this;
    }

    /** Whether {@code challenger} would replace this entry under the merge rule. */
    public boolean wins(Entry challenger) {
        int byTime = challenger.timestamp.compareTo(timestamp);
        if (byTime != 0) {
            return byTime > 0;
        }
        if (value == null || challenger.value == null) {
            return challenger.value == null && value != null;
        }
        return Arrays.compareUnsigned(challenger.value, value) > 0;
    }

    /** Merges a possibly absent entry with another: the winner, or whichever is present. */
    public static @Nullable Entry winner(@Nullable Entry a, @Nullable Entry b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : a.merge(b);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Entry e
                && Arrays.equals(partitionKey, e.partitionKey)
                && Arrays.equals(sortKey, e.sortKey)
                && Arrays.equals(value, e.value)
                && timestamp.equals(e.timestamp);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(partitionKey), Arrays.hashCode(sortKey), Arrays.hashCode(value), timestamp);
    }

    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return "Entry[" + hex.formatHex(partitionKey) + "/" + hex.formatHex(sortKey) + " = "
                + (value == null ? "tombstone" : value.length + " bytes") + " @ " + timestamp + "]";
    }
}
