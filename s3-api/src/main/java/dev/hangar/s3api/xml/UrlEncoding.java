package dev.hangar.s3api.xml;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * S3's {@code encoding-type=url} encoding of keys in listings.
 *
 * <p>What AWS does, measured against real S3 (encoding-type=url on ListObjectsV2 and
 * ListMultipartUploads, reported in brekkylab/backlot#178): letters, digits, {@code - _ . *} and
 * {@code /} stay as they are; a space becomes {@code +}; every other UTF-8 byte becomes {@code %XX}
 * in upper case, {@code ~} and {@code +} included ({@code a b.txt} is {@code a+b.txt}, {@code
 * a+b.txt} is {@code a%2Bb.txt}, {@code 한글/x.txt} is {@code %ED%95%9C%EA%B8%80/x.txt}). That is
 * form encoding, as Java's URLEncoder does it, with {@code /} kept.
 *
 * <p>The clients decode it as form encoding too: botocore's {@code unquote_str} is {@code
 * urllib.parse.unquote_plus}, and the AWS SDK for Java v2 decodes with URLDecoder, so {@code +}
 * comes back as a space and {@code %2B} as a plus. Hangar sends exactly what AWS sends rather than
 * {@code %20} for a space, which those decoders would also accept, because some clients compare
 * the raw text.
 */
final class UrlEncoding {
    private static final char[] HEX_DIGITS = "0123456789ABCDEF".toCharArray();

    private UrlEncoding() {}

    static String encodeKey(String value) {
        if (isLeftAsIs(value)) {
            return value;
        }
        ByteBuffer bytes;
        try {
            bytes = StandardCharsets.UTF_8
                    .newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(value));
        } catch (CharacterCodingException exception) {
            // A lone surrogate has no UTF-8 form; String.getBytes would quietly turn it into '?'.
            throw new IllegalArgumentException("not valid Unicode, so it has no UTF-8 form to encode", exception);
        }
        StringBuilder encoded = new StringBuilder(bytes.remaining() + 16);
        while (bytes.hasRemaining()) {
            int octet = bytes.get() & 0xFF;
            if (isLeftAsIs(octet)) {
                encoded.append((char) octet);
            } else if (octet == ' ') {
                encoded.append('+');
            } else {
                encoded.append('%').append(HEX_DIGITS[octet >> 4]).append(HEX_DIGITS[octet & 0xF]);
            }
        }
        return encoded.toString();
    }

    private static boolean isLeftAsIs(String value) {
        for (int index = 0; index < value.length(); index++) {
            if (!isLeftAsIs(value.charAt(index))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isLeftAsIs(int character) {
        return (character >= 'A' && character <= 'Z')
                || (character >= 'a' && character <= 'z')
                || (character >= '0' && character <= '9')
                || character == '-'
                || character == '_'
                || character == '.'
                || character == '*'
                || character == '/';
    }
}
