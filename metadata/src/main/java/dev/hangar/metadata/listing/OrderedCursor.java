package dev.hangar.metadata.listing;

import org.jspecify.annotations.Nullable;

/**
 * The ordered key-value facade that the listing rules read: the records of one range (a column
 * family under a bound on a single node, a partition key on a cluster) in unsigned byte order of
 * their keys, with forward seeks. A RocksDB iterator is one; the leaderless store's quorum range
 * reads, a page at a time, are another.
 *
 * <p>Seeks only move forward: a seek to a key before the record at the cursor may stay where it
 * is. A seek is the store's cheap way past many records (a common prefix, the rest of a key), and
 * {@link #next} its cheap way to the next one, so the rules use each where the store would.
 */
public interface OrderedCursor {
    /** The key of the record at the cursor; null once the range is exhausted. */
    byte @Nullable [] key();

    /** The value of the record at the cursor, which {@link #key} has shown to exist. */
    byte[] value();

    /** Moves to the next record. */
    void next();

    /** Moves to the first record whose key is at or after {@code target}. */
    void seek(byte[] target);
}
