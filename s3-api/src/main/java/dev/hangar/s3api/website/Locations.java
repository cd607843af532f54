package dev.hangar.s3api.website;

import java.nio.charset.StandardCharsets;

/**
 * Percent-encoding for the path of a {@code Location} header, which must be ASCII without spaces.
 * Keys taken from the (decoded) request path are encoded as path text: only unreserved
 * characters, sub-delimiters, {@code :}, {@code @} and {@code /} stay as they are, so that a key
 * holding {@code ?}, {@code #} or {@code %} comes back as the same key. Text from the configuration
 * is the owner's URL and keeps its meaning: only what no URL may hold (controls, space, non-ASCII,
 * {@code "<>\^`{|}}) is encoded.
 */
final class Locations {
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private Locations() {}

    static String encodeKey(String key) {
        return encode(key, true);
    }

    static String encodeConfigured(String text) {
        return encode(text, false);
    }

    private static String encode(String text, boolean strict) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        StringBuilder encoded = new StringBuilder(bytes.length);
        for (byte b : bytes) {
            int c = b & 0xFF;
            if (strict ? isPathCharacter(c) : isUrlCharacter(c)) {
                encoded.append((char) c);
            } else {
                encoded.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
        return encoded.toString();
    }

    /** RFC 3986 {@code pchar} and {@code /}. */
    private static boolean isPathCharacter(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || "-._~!$&'()*+,;=:@/".indexOf(c) >= 0;
    }

    /** Printable ASCII that may appear in a URL. */
    private static boolean isUrlCharacter(int c) {
        return c > 0x20 && c < 0x7F && "\"<>\\^`{|}".indexOf(c) < 0;
    }
}
