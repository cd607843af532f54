package dev.hangar.metadata.rocksdb;

import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.StoreStatistics;
import dev.hangar.metadata.listing.ByteKeys;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The store-wide counters behind {@link StoreStatistics}, one key each in the counters family.
 *
 * <p>A mutation adds its deltas with {@link Database.Batch#count} and they are written as merge
 * operands of RocksDB's {@code UInt64AddOperator} in the mutation's own batch, so a counter can
 * never disagree with the records it counts, and concurrent writers of different keys never
 * contend on it (merges commute). That operator reads 8-byte little-endian unsigned numbers; a
 * negative delta is its two's complement, which wraps modulo 2^64 to the right sum, and the sum
 * read back as a signed long is the count.
 */
enum Counter {
    /** Versions that are not delete markers. */
    OBJECTS("objects"),
    /** The sizes of those versions. */
    BYTES("bytes"),
    DELETE_MARKERS("delete_markers"),
    BUCKETS("buckets"),
    UPLOADS("uploads");

    private final byte[] key;

    Counter(String key) {
        this.key = ByteKeys.utf8(key);
    }

    byte[] key() {
        return key.clone();
    }

    /** The operand or value {@code UInt64AddOperator} reads: 8 bytes, little-endian. */
    static byte[] encode(long value) {
        return ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
    }

    static long decode(byte[] raw) {
        if (raw.length != Long.BYTES) {
            throw new IllegalArgumentException("not an 8-byte counter: " + raw.length + " bytes");
        }
        return ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    /** Counts a version that the batch stores ({@code sign} 1) or removes ({@code sign} -1). */
    static void countVersion(Database.Batch batch, ObjectVersion version, int sign) {
        countVersion(batch, version.isDeleteMarker(), version.size(), sign);
    }

    static void countVersion(Database.Batch batch, boolean deleteMarker, long size, int sign) {
        if (deleteMarker) {
            batch.count(DELETE_MARKERS, sign);
        } else {
            batch.count(OBJECTS, sign);
            batch.count(BYTES, sign * size);
        }
    }

    /** The statistics from counter values indexed by ordinal. */
    static StoreStatistics statistics(long[] values) {
        return new StoreStatistics(
                values[OBJECTS.ordinal()],
                values[BYTES.ordinal()],
                values[DELETE_MARKERS.ordinal()],
                values[BUCKETS.ordinal()],
                values[UPLOADS.ordinal()]);
    }
}
