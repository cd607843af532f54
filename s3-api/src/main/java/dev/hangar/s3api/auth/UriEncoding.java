package dev.hangar.s3api.auth;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * SigV4's URI encoding: every byte except {@code A-Z a-z 0-9 - _ . ~} becomes {@code %XY} with upper-case
 * hex. Canonical forms are built by decoding what the client sent and encoding it again this way, so that
 * clients which encode more or less than AWS does (a raw {@code ü}, an encoded {@code ~}) still match.
 */
final class UriEncoding {
    private static final char[] UPPER_HEX = "0123456789ABCDEF".toCharArray();

    private UriEncoding() {
    }

    /**
     * The canonical URI of a raw path: the whole path decoded, then encoded again with slashes left as they
     * are. An encoded slash ({@code %2F}) therefore signs as the slash it stands for, as at AWS: the key is
     * the decoded path either way, and the AWS SDK's Apache client relies on it when it sends {@code //} as
     * {@code /%2F} (that HTTP client would otherwise collapse the double slash after signing). S3 neither
     * normalizes {@code .} / {@code ..} nor double-encodes.
     */
    static String canonicalPath(String rawPath) {
        if (rawPath.isEmpty()) {
            return "/";
        }
        byte[] decoded = decode(rawPath, false);
        StringBuilder canonical = new StringBuilder(decoded.length + 16);
        int segmentStart = 0;
        for (int i = 0; i <= decoded.length; i++) {
            if (i == decoded.length || decoded[i] == '/') {
                canonical.append(encode(java.util.Arrays.copyOfRange(decoded, segmentStart, i)));
                if (i < decoded.length) {
                    canonical.append('/');
                }
                segmentStart = i + 1;
            }
        }
        return canonical.toString();
    }

    /**
     * Percent-decodes to bytes. Characters that were sent unencoded stand for their UTF-8 bytes. In a query
     * string {@code +} means a space (form encoding, as S3 reads it); in a path it is a plus.
     *
     * @throws S3Exception {@code InvalidURI} for a {@code %} not followed by two hex digits
     */
    static byte[] decode(String raw, boolean plusIsSpace) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
        int index = 0;
        while (index < raw.length()) {
            char character = raw.charAt(index);
            if (character == '%') {
                if (index + 2 >= raw.length()) {
                    throw invalid();
                }
                int high = Character.digit(raw.charAt(index + 1), 16);
                int low = Character.digit(raw.charAt(index + 2), 16);
                if (high < 0 || low < 0) {
                    throw invalid();
                }
                bytes.write(high << 4 | low);
                index += 3;
            } else if (character == '+' && plusIsSpace) {
                bytes.write(' ');
                index++;
            } else if (character < 0x80) {
                bytes.write(character);
                index++;
            } else {
                // A run of non-ASCII characters is converted at once, so surrogate pairs stay together.
                int runEnd = index + 1;
                while (runEnd < raw.length() && raw.charAt(runEnd) >= 0x80) {
                    runEnd++;
                }
                bytes.writeBytes(raw.substring(index, runEnd).getBytes(StandardCharsets.UTF_8));
                index = runEnd;
            }
        }
        return bytes.toByteArray();
    }

    /** Encodes every byte but the unreserved ones, slashes included. */
    static String encode(byte[] bytes) {
        StringBuilder encoded = new StringBuilder(bytes.length + 8);
        for (byte value : bytes) {
            int unsigned = value & 0xFF;
            if (isUnreserved(unsigned)) {
                encoded.append((char) unsigned);
            } else {
                encoded.append('%').append(UPPER_HEX[unsigned >>> 4]).append(UPPER_HEX[unsigned & 0xF]);
            }
        }
        return encoded.toString();
    }

    private static boolean isUnreserved(int character) {
        return (character >= 'A' && character <= 'Z') || (character >= 'a' && character <= 'z')
                || (character >= '0' && character <= '9')
                || character == '-' || character == '_' || character == '.' || character == '~';
    }

    private static S3Exception invalid() {
        return new S3Exception(S3Error.INVALID_URI, "Couldn't parse the specified URI.");
    }
}
