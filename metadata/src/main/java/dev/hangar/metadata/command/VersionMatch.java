package dev.hangar.metadata.command;

import dev.hangar.metadata.ObjectVersion;
import java.time.Instant;
import java.util.Objects;

/**
 * Identifies the exact version a caller judged, beyond its id: a {@code "null"} version written
 * again keeps its id, so lifecycle, which decides from a listing, says which one it meant.
 */
public record VersionMatch(Instant lastModified, String etag, boolean deleteMarker) {
    public VersionMatch {
        Objects.requireNonNull(lastModified, "lastModified");
        Objects.requireNonNull(etag, "etag");
    }

    public static VersionMatch of(ObjectVersion version) {
        return new VersionMatch(version.lastModified(), version.etag(), version.isDeleteMarker());
    }

    public boolean matches(ObjectVersion version) {
        return version.lastModified().equals(lastModified) && version.etag().equals(etag)
                && version.isDeleteMarker() == deleteMarker;
    }
}
