package dev.hangar.metadata.rocksdb;

import dev.hangar.metadata.codec.FieldWriter;
import dev.hangar.metadata.MetadataStorageException;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Reads what {@link FieldWriter} wrote; any inconsistency is a corrupt record. */
final class RecordReader {
    private final byte[] bytes;
    private int position;

    RecordReader(byte[] bytes) {
        this.bytes = bytes;
    }

    int readByte() {
        require(1);
        return bytes[position++] & 0xFF;
    }

    boolean readBoolean() {
        int value = readByte();
        return switch (value) {
            case 0 -> false;
            case 1 -> true;
            default -> throw corrupt("presence byte " + value);
        };
    }

    int readInt() {
        require(4);
        int value = 0;
        for (int i = 0; i < 4; i++) {
            value = (value << 8) | (bytes[position++] & 0xFF);
        }
        return value;
    }

    long readVarLong() {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int next = readByte();
            value |= (long) (next & 0x7F) << shift;
            if ((next & 0x80) == 0) {
                return value;
            }
        }
        throw corrupt("varint longer than 64 bits");
    }

    long readSignedVarLong() {
        long zigzag = readVarLong();
        return (zigzag >>> 1) ^ -(zigzag & 1);
    }

    /** A count or length: a varint that must fit what is left of the record. */
    int readCount() {
        long count = readVarLong();
        if (count < 0 || count > bytes.length - position) {
            throw corrupt("count " + count + " exceeds the record");
        }
        return (int) count;
    }

    byte[] readBytes() {
        return readRaw(readCount());
    }

    byte[] readRaw(int length) {
        require(length);
        byte[] result = new byte[length];
        System.arraycopy(bytes, position, result, 0, length);
        position += length;
        return result;
    }

    /** Reads {@code length} bytes in place: the caller decodes them from {@link #bytes()}. */
    int skip(int length) {
        require(length);
        int start = position;
        position += length;
        return start;
    }

    byte[] bytes() {
        return bytes;
    }

    String readString() {
        int length = readCount();
        int start = skip(length);
        return new String(bytes, start, length, StandardCharsets.UTF_8);
    }

    @Nullable String readNullableString() {
        return readBoolean() ? readString() : null;
    }

    Instant readInstant() {
        long seconds = readSignedVarLong();
        long nanos = readVarLong();
        try {
            return Instant.ofEpochSecond(seconds, nanos);
        } catch (DateTimeException | ArithmeticException e) {
            throw corrupt("instant out of range");
        }
    }

    Map<String, String> readMap() {
        int count = readCount();
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i < count; i++) {
            map.put(readString(), readString());
        }
        return map;
    }

    /** Fails unless every byte was read: trailing bytes mean a format this code does not know. */
    void finish() {
        if (position != bytes.length) {
            throw corrupt((bytes.length - position) + " trailing bytes");
        }
    }

    MetadataStorageException corrupt(String detail) {
        return new MetadataStorageException("corrupt metadata record: " + detail);
    }

    private void require(int length) {
        if (length < 0 || length > bytes.length - position) {
            throw corrupt("truncated");
        }
    }
}
