package dev.hangar.s3api.auth;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.util.Arrays;
import java.util.List;
import java.util.ArrayList;
import org.jspecify.annotations.Nullable;

/**
 * A parsed {@code Authorization: AWS4-HMAC-SHA256 Credential=..., SignedHeaders=a;b, Signature=hex}.
 * Components are separated by commas and/or spaces in any amount, as clients differ there and AWS accepts
 * them all.
 */
record AuthorizationHeader(String credential, List<String> signedHeaders, String signature) {
    static final String UNSUPPORTED_MESSAGE =
            "The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.";

    static AuthorizationHeader parse(String value) {
        String trimmed = value.strip();
        int space = indexOfBlank(trimmed);
        String algorithm = space < 0 ? trimmed : trimmed.substring(0, space);
        if (!algorithm.equals(Signatures.ALGORITHM)) {
            // SigV2 ("AWS AKID:signature"), SigV4a and anything else.
            throw new S3Exception(S3Error.INVALID_REQUEST, UNSUPPORTED_MESSAGE);
        }
        String credential = null;
        String signedHeaders = null;
        String signature = null;
        for (String component : components(trimmed, space < 0 ? trimmed.length() : space)) {
            int equals = component.indexOf('=');
            if (equals <= 0) {
                throw malformed("the authorization component \"" + component + "\" is malformed.");
            }
            String key = component.substring(0, equals);
            String componentValue = component.substring(equals + 1);
            switch (key) {
                case "Credential" -> credential = once(credential, componentValue, component);
                case "SignedHeaders" -> signedHeaders = once(signedHeaders, componentValue, component);
                case "Signature" -> signature = once(signature, componentValue, component);
                default -> throw malformed("the authorization component \"" + component + "\" is malformed.");
            }
        }
        if (credential == null || signedHeaders == null || signature == null) {
            throw malformed("the authorization header requires three components: "
                    + "Credential, SignedHeaders, and Signature.");
        }
        List<String> headerNames = Arrays.asList(signedHeaders.split(";", -1));
        if (headerNames.stream().anyMatch(String::isEmpty)) {
            throw malformed("the SignedHeaders component \"" + signedHeaders + "\" is malformed.");
        }
        return new AuthorizationHeader(credential, List.copyOf(headerNames), signature);
    }

    /**
     * The non-empty runs of {@code value} from {@code from} between commas and white space ({@code [\s,]+}, as Java's
     * regular expressions read {@code \s}). A loop rather than a regular expression: this runs on every request.
     */
    static List<String> components(String value, int from) {
        List<String> components = new ArrayList<>(3);
        int start = -1;
        for (int index = from; index <= value.length(); index++) {
            if (index == value.length() || isSeparator(value.charAt(index))) {
                if (start >= 0) {
                    components.add(value.substring(start, index));
                    start = -1;
                }
            } else if (start < 0) {
                start = index;
            }
        }
        return components;
    }

    private static boolean isSeparator(char c) {
        return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }

    static S3Exception malformed(String detail) {
        return new S3Exception(S3Error.AUTHORIZATION_HEADER_MALFORMED,
                "The authorization header is malformed; " + detail);
    }

    private static String once(@Nullable String previous, String value, String component) {
        if (previous != null) {
            throw malformed("the authorization component \"" + component + "\" is repeated.");
        }
        return value;
    }

    private static int indexOfBlank(String value) {
        for (int index = 0; index < value.length(); index++) {
            if (Character.isWhitespace(value.charAt(index))) {
                return index;
            }
        }
        return -1;
    }
}
