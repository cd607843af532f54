package dev.hangar.s3api.lifecycle;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * What lifecycle rules read of one version of an object.
 *
 * @param key the object's key
 * @param size the version's size in bytes (a delete marker is taken as 0, whatever is given)
 * @param tags the version's tags (a delete marker is taken to have none)
 * @param lastModified when the version was created: written, or for a delete marker, when the delete happened
 * @param isDeleteMarker whether the version is a delete marker
 */
public record VersionFacts(String key, long size, Map<String, String> tags, Instant lastModified,
        boolean isDeleteMarker) {

    public VersionFacts {
        Objects.requireNonNull(key, "key");
        tags = Map.copyOf(tags);
        Objects.requireNonNull(lastModified, "lastModified");
        if (size < 0) {
            throw new IllegalArgumentException("size must not be negative: " + size);
        }
    }

    /** An object version (not a delete marker). */
    public static VersionFacts object(String key, long size, Map<String, String> tags, Instant lastModified) {
        return new VersionFacts(key, size, tags, lastModified, false);
    }

    /** A delete marker. */
    public static VersionFacts deleteMarker(String key, Instant lastModified) {
        return new VersionFacts(key, 0, Map.of(), lastModified, true);
    }

    /** Whether a rule's filter applies to this version; a delete marker has no tags and size 0. */
    boolean matches(RuleFilter filter) {
        return isDeleteMarker ? filter.matches(key, Map.of(), 0) : filter.matches(key, tags, size);
    }
}
