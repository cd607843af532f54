package dev.hangar.s3api.request;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.io.ByteArrayOutputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Finds the bucket and key a request names: virtual-host style when the Host is {@code
 * bucket.<domain>}, path style ({@code /bucket/key}) otherwise.
 *
 * @param domain the base domain of virtual-host-style addressing, or null for path style only
 */
public record Addressing(@Nullable String domain) {

    /** The bucket and key of a request; both null for the service, key null for a bucket. */
    public record Target(@Nullable String bucket, @Nullable String key) {}

    public Target resolve(@Nullable String host, String rawPath) {
        String path = rawPath.isEmpty() ? "/" : rawPath;
        String hostBucket = hostBucket(host);
        if (hostBucket != null) {
            return new Target(hostBucket, path.length() > 1 ? decodePath(path.substring(1)) : null);
        }
        String rest = path.substring(1);
        int slash = rest.indexOf('/');
        if (rest.isEmpty()) {
            return new Target(null, null);
        }
        if (slash < 0) {
            return new Target(decodePath(rest), null);
        }
        String bucket = decodePath(rest.substring(0, slash));
        String key = rest.substring(slash + 1);
        return new Target(bucket, key.isEmpty() ? null : decodePath(key));
    }

    /** The bucket a virtual-host-style Host header names ({@code bucket.<domain>}), or null. */
    public @Nullable String hostBucket(@Nullable String host) {
        if (domain == null || domain.isEmpty() || host == null) {
            return null;
        }
        String name = host.toLowerCase(Locale.ROOT);
        int colon = name.lastIndexOf(':');
        if (colon > 0 && name.indexOf(']') < colon) {
            name = name.substring(0, colon);
        }
        String suffix = "." + domain.toLowerCase(Locale.ROOT);
        if (name.endsWith(suffix) && name.length() > suffix.length()) {
            return name.substring(0, name.length() - suffix.length());
        }
        return null;
    }

    /** Decodes a query string into parameters; names without '=' get an empty value. */
    public static Map<String, List<String>> parseQuery(@Nullable String rawQuery) {
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return parameters;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name = decodeQuery(equals < 0 ? pair : pair.substring(0, equals));
            String value = equals < 0 ? "" : decodeQuery(pair.substring(equals + 1));
            parameters.computeIfAbsent(name, ignored -> new ArrayList<>()).add(value);
        }
        return parameters;
    }

    /** Percent-decodes a path segment as UTF-8; unlike a form, '+' stays a plus. */
    public static String decodePath(String encoded) {
        return decode(encoded, false);
    }

    /**
     * Percent-decodes a query parameter's name or value as UTF-8, '+' as a space. Malformed UTF-8 is
     * refused rather than replaced, as in a path: a prefix or marker that silently became U+FFFD would
     * list something the client never asked for.
     */
    static String decodeQuery(String encoded) {
        return decode(encoded, true);
    }

    private static String decode(String encoded, boolean plusIsSpace) {
        if (encoded.indexOf('%') < 0) {
            return plusIsSpace ? encoded.replace('+', ' ') : encoded;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(encoded.length());
        int i = 0;
        while (i < encoded.length()) {
            char c = encoded.charAt(i);
            if (c == '%') {
                if (i + 2 >= encoded.length()) {
                    throw invalidUri();
                }
                int high = Character.digit(encoded.charAt(i + 1), 16);
                int low = Character.digit(encoded.charAt(i + 2), 16);
                if (high < 0 || low < 0) {
                    throw invalidUri();
                }
                bytes.write(high << 4 | low);
                i += 3;
            } else if (c == '+' && plusIsSpace) {
                bytes.write(' ');
                i++;
            } else {
                // Whole code points, so that an unencoded surrogate pair keeps its character.
                int codePoint = encoded.codePointAt(i);
                byte[] utf8 = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8);
                bytes.write(utf8, 0, utf8.length);
                i += Character.charCount(codePoint);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            throw invalidUri();
        }
    }

    private static S3Exception invalidUri() {
        return new S3Exception(S3Error.INVALID_URI, "Couldn't parse the specified URI: malformed percent-encoding.");
    }
}
