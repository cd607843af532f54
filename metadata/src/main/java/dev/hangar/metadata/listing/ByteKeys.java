package dev.hangar.metadata.listing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Arithmetic on keys ordered as unsigned bytes, which is how RocksDB and the replicated table sort
 * them, and, for UTF-8 names, S3's listing order. Both stores spell their keys with these.
 */
public final class ByteKeys {
    private static final int INT_BYTES = Integer.BYTES;

    private ByteKeys() {}

    /**
     * The smallest key greater than every key that starts with {@code prefix}: the prefix with its
     * last byte below 0xFF incremented and the 0xFF bytes after it dropped; null if there is none
     * (a prefix of 0xFF bytes only, or an empty one).
     */
    public static byte @Nullable [] pastPrefix(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xFF) {
                byte[] next = Arrays.copyOf(prefix, i + 1);
                next[i]++;
                return next;
            }
        }
        return null;
    }

    /** The smallest key greater than {@code key}: the key followed by a 0 byte. */
    public static byte[] justAfter(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    public static byte[] max(byte[] first, byte[] second) {
        return Arrays.compareUnsigned(first, second) >= 0 ? first : second;
    }

    public static boolean startsWith(byte[] bytes, byte[] prefix) {
        return bytes.length >= prefix.length && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
    }

    /** The first index of {@code needle} in {@code bytes[from, to)} that fits before {@code to}, or -1. */
    public static int indexOf(byte[] bytes, byte[] needle, int from, int to) {
        for (int i = from; i + needle.length <= to; i++) {
            if (Arrays.equals(bytes, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }

    public static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] result = new byte[length];
        int position = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, result, position, part.length);
            position += part.length;
        }
        return result;
    }

    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    public static String string(byte[] bytes, int from, int to) {
        return new String(bytes, from, to - from, StandardCharsets.UTF_8);
    }

    /** A non-negative number as 4 bytes big-endian, so that numeric order is byte order (part numbers). */
    public static byte[] int32(int value) {
        return ByteBuffer.allocate(INT_BYTES).putInt(value).array();
    }

    /** The number that ends {@code key}, written by {@link #int32(int)}. */
    public static int int32At(byte[] key) {
        return ByteBuffer.wrap(key, key.length - INT_BYTES, INT_BYTES).getInt();
    }
}
