package dev.hangar.s3api.xml;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One {@code Object} of a DeleteObjects request.
 *
 * @param key the key exactly as sent, white space included (a key may begin or end with spaces)
 * @param versionId the version to delete, or null for the current one
 */
public record ObjectIdentifier(String key, @Nullable String versionId) {
    public ObjectIdentifier {
        Objects.requireNonNull(key, "key is required");
    }
}
