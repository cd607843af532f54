package dev.hangar.metadata;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of ListObjectVersions: versions by key then newest first, delete markers included, plus
 * common prefixes.
 *
 * @param nextKeyMarker when truncated, the key of the last version returned, or the last common
 *     prefix if the page ended with one
 * @param nextVersionIdMarker when truncated, the id of the last version returned; null if the page
 *     ended with a common prefix
 */
public record VersionListing(
        List<ListedVersion> versions,
        List<String> commonPrefixes,
        boolean truncated,
        @Nullable String nextKeyMarker,
        @Nullable String nextVersionIdMarker) {
    public VersionListing {
        versions = List.copyOf(versions);
        commonPrefixes = List.copyOf(commonPrefixes);
    }
}
