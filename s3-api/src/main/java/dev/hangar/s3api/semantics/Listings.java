package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.S3Request;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Query parameters shared by the listing operations. */
final class Listings {
    static final int MAX_PAGE = 1000;

    /** Whether keys in a listing are URL-encoded ({@code encoding-type=url}). */
    enum Encoding {
        NONE,
        URL
    }

    private Listings() {}

    /** A page size parameter: absent gives the default, more than 1000 is capped as S3 does. */
    static int limit(S3Request request, String name, int defaultValue) {
        String value = request.parameter(name);
        if (value == null) {
            return defaultValue;
        }
        return Math.min(MAX_PAGE, parseNonNegative(name, value));
    }

    static int nonNegative(S3Request request, String name) {
        String value = request.parameter(name);
        return value == null ? 0 : parseNonNegative(name, value);
    }

    static Encoding encoding(S3Request request) {
        String value = request.parameter("encoding-type");
        if (value == null) {
            return Encoding.NONE;
        }
        if (value.equalsIgnoreCase("url")) {
            return Encoding.URL;
        }
        throw new S3Exception(S3Error.INVALID_ARGUMENT, "Invalid Encoding Method specified in Request");
    }

    /** Continuation tokens are opaque to clients: the key to resume after, base64url-encoded. */
    static String continuationToken(String resumeAfter) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(resumeAfter.getBytes(StandardCharsets.UTF_8));
    }

    static String resumeAfter(String continuationToken) {
        try {
            byte[] decoded = Base64.getUrlDecoder().decode(continuationToken);
            if (decoded.length == 0) {
                throw invalidToken();
            }
            String resumeAfter = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(decoded))
                    .toString();
            if (resumeAfter.indexOf('\0') >= 0) {
                // Never a key this server wrote into a token: no key holds NUL.
                throw invalidToken();
            }
            return resumeAfter;
        } catch (IllegalArgumentException | java.nio.charset.CharacterCodingException e) {
            throw invalidToken();
        }
    }

    private static S3Exception invalidToken() {
        return new S3Exception(S3Error.INVALID_ARGUMENT, "The continuation token provided is incorrect");
    }

    private static int parseNonNegative(String name, String value) {
        try {
            int parsed = Integer.parseInt(value);
            if (parsed >= 0) {
                return parsed;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new S3Exception(S3Error.INVALID_ARGUMENT, "Provided " + name + " not an integer or within integer range");
    }
}
