package dev.hangar.s3api.auth;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Builds the SigV4 canonical request and string to sign from the request as received.
 *
 * <pre>
 * method \n canonical URI \n canonical query \n canonical headers \n signed headers \n payload hash
 * </pre>
 */
final class CanonicalRequest {
    static final String SIGNATURE_PARAMETER = "X-Amz-Signature";

    private static final Comparator<QueryParameter> CANONICAL_ORDER = Comparator
            .comparing(QueryParameter::encodedName)
            .thenComparing(QueryParameter::encodedValue);

    private CanonicalRequest() {
    }

    /** Splits and decodes a raw query string; empty pieces ({@code a=1&&b=2}) are skipped. */
    static List<QueryParameter> parseQuery(@Nullable String rawQuery) {
        List<QueryParameter> parameters = new ArrayList<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return parameters;
        }
        for (String piece : rawQuery.split("&", -1)) {
            if (piece.isEmpty()) {
                continue;
            }
            int equals = piece.indexOf('=');
            String rawName = equals < 0 ? piece : piece.substring(0, equals);
            String rawValue = equals < 0 ? "" : piece.substring(equals + 1);
            byte[] name = UriEncoding.decode(rawName, true);
            byte[] value = UriEncoding.decode(rawValue, true);
            parameters.add(new QueryParameter(
                    new String(name, StandardCharsets.UTF_8), new String(value, StandardCharsets.UTF_8),
                    UriEncoding.encode(name), UriEncoding.encode(value)));
        }
        return parameters;
    }

    /**
     * Every parameter as {@code name=value}, sorted by encoded name then encoded value (byte order, which for
     * the ASCII of an encoded string is code point order), joined by {@code &}. A presigned request leaves out
     * its own signature.
     */
    static String canonicalQuery(List<QueryParameter> parameters, boolean presigned) {
        StringBuilder canonical = new StringBuilder();
        parameters.stream()
                .filter(parameter -> !(presigned && parameter.name().equals(SIGNATURE_PARAMETER)))
                .sorted(CANONICAL_ORDER)
                .forEach(parameter -> {
                    if (!canonical.isEmpty()) {
                        canonical.append('&');
                    }
                    canonical.append(parameter.encodedName()).append('=').append(parameter.encodedValue());
                });
        return canonical.toString();
    }

    /**
     * One {@code name:value\n} line per signed header, in the order the client listed them (SigV4 requires
     * that order to be sorted, so a client that did not sort computed a different signature anyway). Repeated
     * headers join with commas; each value is trimmed and its inner runs of spaces collapse to one.
     */
    static String canonicalHeaders(List<String> signedHeaders, Map<String, List<String>> headers) {
        StringBuilder canonical = new StringBuilder();
        for (String name : signedHeaders) {
            canonical.append(name).append(':');
            List<String> values = headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
            for (int index = 0; index < values.size(); index++) {
                if (index > 0) {
                    canonical.append(',');
                }
                appendTrimmed(canonical, values.get(index));
            }
            canonical.append('\n');
        }
        return canonical.toString();
    }

    static String build(SignedRequest request, String canonicalQuery, List<String> signedHeaders, String payloadHash) {
        return request.method() + '\n'
                + UriEncoding.canonicalPath(request.rawPath()) + '\n'
                + canonicalQuery + '\n'
                + canonicalHeaders(signedHeaders, request.headers()) + '\n'
                + String.join(";", signedHeaders) + '\n'
                + payloadHash;
    }

    static String stringToSign(String timestamp, String credentialScope, String canonicalRequest) {
        return Signatures.ALGORITHM + '\n'
                + timestamp + '\n'
                + credentialScope + '\n'
                + Signatures.sha256Hex(canonicalRequest);
    }

    private static void appendTrimmed(StringBuilder canonical, String value) {
        int start = 0;
        int end = value.length();
        while (start < end && isBlank(value.charAt(start))) {
            start++;
        }
        while (end > start && isBlank(value.charAt(end - 1))) {
            end--;
        }
        boolean previousWasSpace = false;
        for (int index = start; index < end; index++) {
            char character = value.charAt(index);
            boolean space = character == ' ';
            if (!(space && previousWasSpace)) {
                canonical.append(character);
            }
            previousWasSpace = space;
        }
    }

    private static boolean isBlank(char character) {
        return character == ' ' || character == '\t';
    }
}
