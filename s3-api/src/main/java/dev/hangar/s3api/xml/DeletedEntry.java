package dev.hangar.s3api.xml;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One {@code Deleted} element of DeleteObjects' answer: {@code Key}, {@code VersionId} when
 * present, {@code DeleteMarker} when true, {@code DeleteMarkerVersionId} when present.
 */
public record DeletedEntry(
        String key, @Nullable String versionId, boolean deleteMarker, @Nullable String deleteMarkerVersionId) {

    public DeletedEntry {
        Objects.requireNonNull(key, "key is required");
    }

    /** A key deleted in an unversioned bucket. */
    public DeletedEntry(String key) {
        this(key, null, false, null);
    }
}
