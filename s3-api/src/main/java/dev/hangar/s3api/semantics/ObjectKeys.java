package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.nio.charset.StandardCharsets;

/** Object key rules: non-empty, at most 1024 bytes of UTF-8. */
final class ObjectKeys {
    static final int MAX_BYTES = 1024;

    private ObjectKeys() {}

    static void validate(String key) {
        if (key.isEmpty()) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "An object key must not be empty.");
        }
        if (key.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            throw new S3Exception(S3Error.KEY_TOO_LONG, "Your key is too long: keys are limited to 1024 bytes of UTF-8.");
        }
        if (key.indexOf('\0') >= 0) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Object keys must not contain the NUL character.");
        }
    }
}
