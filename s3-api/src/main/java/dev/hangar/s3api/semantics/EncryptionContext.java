package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The SSE-KMS encryption context of {@code x-amz-server-side-encryption-context}: base64 of a JSON object of string
 * values, which the data key is bound to and S3 answers back. Hangar keeps it as sent; it checks only that it is
 * base64 of a JSON object, as AWS refuses anything else.
 */
final class EncryptionContext {
    private static final int MAX_LENGTH = 8 * 1024;

    private EncryptionContext() {}

    /**
     * @return the header's value, stripped
     * @throws S3Exception InvalidArgument for a value that is not base64 of a JSON object
     */
    static String check(String header) {
        String value = header.strip();
        String json;
        try {
            json = new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8).strip();
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
        if (value.length() > MAX_LENGTH || !json.startsWith("{") || !json.endsWith("}")) {
            throw invalid();
        }
        return value;
    }

    private static S3Exception invalid() {
        return new S3Exception(S3Error.INVALID_ARGUMENT, "The header 'x-amz-server-side-encryption-context' shall be "
                + "Base64-encoded UTF-8 string holding JSON which represents a string-string map");
    }
}
