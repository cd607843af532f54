package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Timestamp;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The value of a version's entry (the {@code "null"} slot or a version with an id, {@link
 * ObjectSlots}). Two formats, both read:
 *
 * <ul>
 *   <li>format 2: the order (8 bytes big-endian), a flags byte (bit 0: dead), then, for a live
 *       version, the version in {@link dev.hangar.metadata.rocksdb.RecordFormat}'s object format.
 *       Every field of the version was written at the entry's timestamp. A version as first
 *       written, and every dead one, is still written so.
 *   <li>format 4: as format 2, with between the flags and the record a count byte and, per field
 *       of {@link VersionField} stamped otherwise than the entry, its id byte and its timestamp
 *       ({@link StampCodec}). Written by a metadata change (which stamps only the fields it
 *       changed) and by {@link VersionJoin}.
 * </ul>
 *
 * <p>A deleted version is written back dead at the same order rather than as a table tombstone:
 * under {@link MetadataMergeRule}, dead beats live at one order, so a deletion can only move forward
 * (a metadata change racing it through another node cannot bring it back), and a higher order beats
 * both, so a new {@code "null"} version replaces a deleted one. A dead value carries no record.
 *
 * <p>The index entry of a version ({@code K 0 2 versionId}) holds format byte 3 and the order.
 *
 * @param record the encoded version, its fields as merged; null when dead
 * @param stamps the timestamps of the fields written at another time than the entry; a field it
 *     does not name was written at the entry's timestamp
 */
record VersionValue(long order, boolean dead, byte @Nullable [] record, Map<VersionField, Timestamp> stamps) {
    static final byte FORMAT = 2;
    static final byte STAMPED_FORMAT = 4;
    static final byte INDEX_FORMAT = 3;
    private static final int HEADER = 1 + Long.BYTES + 1;
    private static final byte DEAD = 1;

    VersionValue {
        if (order < 0) {
            throw new IllegalArgumentException("orders are not negative: " + order);
        }
        if (dead != (record == null)) {
            throw new IllegalArgumentException("a live version carries its record, a dead one none");
        }
        if (dead && !stamps.isEmpty()) {
            throw new IllegalArgumentException("a dead version has no fields to stamp");
        }
        stamps = stamps.isEmpty() ? Map.of() : Map.copyOf(stamps);
    }

    /**
     * The stamp a coordinator gives a new version (the state machine raises it above the key's
     * newest): its hybrid clock as microseconds, the logical counter in the microseconds of its
     * millisecond. Stamps of one node never go back; stamps of different nodes are as far apart as
     * their clocks, so versions written through different nodes closer in time than the clocks'
     * offset may be ordered either way.
     */
    static long stamp(Timestamp now) {
        return Math.multiplyExact(now.wall(), 1000L) + Math.min(now.logical(), 999);
    }

    /** A live version all of whose fields are written with the entry. */
    static VersionValue live(long order, byte[] record) {
        return new VersionValue(order, false, Objects.requireNonNull(record, "record"), Map.of());
    }

    /** A live version whose fields named in {@code stamps} were written at those times, the rest with the entry. */
    static VersionValue live(long order, byte[] record, Map<VersionField, Timestamp> stamps) {
        return new VersionValue(order, false, Objects.requireNonNull(record, "record"), stamps);
    }

    static VersionValue dead(long order) {
        return new VersionValue(order, true, null, Map.of());
    }

    /** Every field's timestamp, for a value held by an entry of timestamp {@code entry}. */
    Map<VersionField, Timestamp> resolvedStamps(Timestamp entry) {
        Map<VersionField, Timestamp> resolved = new EnumMap<>(VersionField.class);
        for (VersionField field : VersionField.values()) {
            resolved.put(field, stamps.getOrDefault(field, entry));
        }
        return resolved;
    }

    /** The same version without its field stamps: what readers see of it. */
    VersionValue unstamped() {
        return new VersionValue(order, dead, record, Map.of());
    }

    byte[] encode() {
        byte[] body = record == null ? new byte[0] : record;
        if (stamps.isEmpty()) {
            return ByteBuffer.allocate(HEADER + body.length)
                    .put(FORMAT).putLong(order).put(dead ? DEAD : 0).put(body).array();
        }
        // Fields in id order, so that one value has one encoding.
        Map<VersionField, Timestamp> sorted = new EnumMap<>(stamps);
        int size = HEADER + 1 + body.length;
        for (Timestamp stamp : sorted.values()) {
            size += 1 + StampCodec.size(stamp);
        }
        ByteBuffer out = ByteBuffer.allocate(size).put(STAMPED_FORMAT).putLong(order).put((byte) 0)
                .put((byte) sorted.size());
        sorted.forEach((field, stamp) -> StampCodec.write(out.put(field.id), stamp));
        return out.put(body).array();
    }

    static VersionValue decode(byte[] value) {
        if (!isVersion(value)) {
            throw new IllegalArgumentException("not a version value (format " + (value.length == 0 ? "none" : value[0]) + ")");
        }
        boolean dead = isDead(value);
        if (value[0] == FORMAT) {
            return new VersionValue(order(value), dead, dead ? null : Arrays.copyOfRange(value, HEADER, value.length),
                    Map.of());
        }
        ByteBuffer in = ByteBuffer.wrap(value, HEADER, value.length - HEADER);
        int count = Byte.toUnsignedInt(in.get());
        Map<VersionField, Timestamp> stamps = new EnumMap<>(VersionField.class);
        for (int i = 0; i < count; i++) {
            stamps.put(VersionField.of(in.get()), StampCodec.read(in));
        }
        return new VersionValue(order(value), dead, Arrays.copyOfRange(value, in.position(), value.length), stamps);
    }

    /** Whether the value is a version value at all: what the merge rule orders by order and deadness. */
    static boolean isVersion(byte[] value) {
        return value.length >= HEADER && (value[0] == FORMAT || (value[0] == STAMPED_FORMAT && value.length > HEADER));
    }

    /** The order of a version value, decoding nothing else. */
    static long order(byte[] value) {
        return ByteBuffer.wrap(value, 1, Long.BYTES).getLong();
    }

    /** Whether a version value is dead, decoding nothing else. */
    static boolean isDead(byte[] value) {
        return (value[HEADER - 1] & DEAD) != 0;
    }

    static byte[] index(long order) {
        return ByteBuffer.allocate(1 + Long.BYTES).put(INDEX_FORMAT).putLong(order).array();
    }

    static long indexOrder(byte[] value) {
        if (value.length != 1 + Long.BYTES || value[0] != INDEX_FORMAT) {
            throw new IllegalArgumentException("not a version index value");
        }
        return ByteBuffer.wrap(value, 1, Long.BYTES).getLong();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof VersionValue that && order == that.order && dead == that.dead
                && Arrays.equals(record, that.record) && stamps.equals(that.stamps);
    }

    @Override
    public int hashCode() {
        return Objects.hash(order, dead, Arrays.hashCode(record), stamps);
    }

    @Override
    public String toString() {
        return "VersionValue[order " + order + (dead ? ", dead]" : ", " + record.length + " bytes, stamps " + stamps + "]");
    }
}
