package dev.hangar.s3api.xml;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One {@code Error} element of DeleteObjects' answer: {@code Key}, {@code VersionId} when present,
 * {@code Code}, {@code Message} (the order of the API reference's example).
 */
public record DeleteErrorEntry(String key, @Nullable String versionId, String code, String message) {
    public DeleteErrorEntry {
        Objects.requireNonNull(key, "key is required");
        Objects.requireNonNull(code, "error code is required");
        Objects.requireNonNull(message, "error message is required");
    }

    /** A key that could not be deleted, in an unversioned bucket. */
    public DeleteErrorEntry(String key, String code, String message) {
        this(key, null, code, message);
    }
}
