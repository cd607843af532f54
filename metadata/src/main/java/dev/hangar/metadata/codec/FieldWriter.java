package dev.hangar.metadata.codec;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Appends fields to a growing byte array, in the spirit of {@code DataOutputStream}: fixed-width
 * integers big-endian, lengths and counts as unsigned LEB128 varints (one byte below 128), strings
 * as a length and UTF-8 bytes, instants as zigzag seconds and nanoseconds, maps sorted by name. The
 * one set of field conventions that the stored record format and the command codec share.
 */
public final class FieldWriter {
    private byte[] buffer = new byte[128];
    private int length;

    public void writeByte(int value) {
        ensure(1);
        buffer[length++] = (byte) value;
    }

    public void writeBoolean(boolean value) {
        writeByte(value ? 1 : 0);
    }

    public void writeInt(int value) {
        ensure(4);
        for (int shift = 24; shift >= 0; shift -= 8) {
            buffer[length++] = (byte) (value >>> shift);
        }
    }

    /** An unsigned varint: seven bits a byte, high bit set on every byte but the last. */
    public void writeVarLong(long value) {
        ensure(10);
        long rest = value;
        while ((rest & ~0x7FL) != 0) {
            buffer[length++] = (byte) ((rest & 0x7F) | 0x80);
            rest >>>= 7;
        }
        buffer[length++] = (byte) rest;
    }

    /** A signed varint, zigzag-encoded so that small negative numbers stay short too. */
    public void writeSignedVarLong(long value) {
        writeVarLong((value << 1) ^ (value >> 63));
    }

    public void writeBytes(byte[] bytes) {
        writeVarLong(bytes.length);
        writeRaw(bytes);
    }

    public void writeRaw(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buffer, length, bytes.length);
        length += bytes.length;
    }

    public void writeString(String text) {
        writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }

    public void writeNullableString(@Nullable String text) {
        writeBoolean(text != null);
        if (text != null) {
            writeString(text);
        }
    }

    /** Seconds and nanoseconds: exact, so that a read record equals the written one. */
    public void writeInstant(Instant instant) {
        writeSignedVarLong(instant.getEpochSecond());
        writeVarLong(instant.getNano());
    }

    /** Count and pairs, sorted by name so that equal maps always encode to equal bytes. */
    public void writeMap(Map<String, String> map) {
        writeVarLong(map.size());
        for (Map.Entry<String, String> entry : new TreeMap<>(map).entrySet()) {
            writeString(entry.getKey());
            writeString(entry.getValue());
        }
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buffer, length);
    }

    private void ensure(int extra) {
        if (length + extra > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + extra));
        }
    }
}
