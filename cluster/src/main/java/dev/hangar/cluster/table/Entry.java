package dev.hangar.cluster.table;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One versioned record of a table, and the merge rule that makes replicas converge.
 *
 * <p><b>Merge rule.</b> Replicas converge because every place where two entries of one key meet
 * keeps the winner under the table's {@link MergeRule}: by default {@link
 * MergeRule#LAST_WRITER_WINS}, the greater {@link Timestamp} (wall milliseconds, then the logical
 * counter, then the issuing node's id). {@link #merge} and {@link #wins} are that default rule.
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

    /** The winner of this entry and {@code other} under last writer wins; both must have the same key. */
    public Entry merge(Entry other) {
        return MergeRule.LAST_WRITER_WINS.merge(this, other);
    }

    /** Whether {@code challenger} would replace this entry under last writer wins. */
    public boolean wins(Entry challenger) {
        return MergeRule.LAST_WRITER_WINS.wins(this, challenger);
    }

    /** Merges a possibly absent entry with another under last writer wins: the winner, or whichever is present. */
    public static @Nullable Entry winner(@Nullable Entry a, @Nullable Entry b) {
        return MergeRule.LAST_WRITER_WINS.winner(a, b);
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
