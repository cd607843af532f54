package dev.hangar.metadata;

import org.jspecify.annotations.Nullable;

/**
 * What to list of the versions of a bucket: keys starting with {@code prefix}, rolled up into
 * common prefixes at the first {@code delimiter} after the prefix, after the markers, at most
 * {@code maxKeys} versions and common prefixes together. See {@link MetadataStore#listVersions}
 * for the marker rules.
 */
public record VersionQuery(
        String prefix,
        @Nullable String delimiter,
        @Nullable String keyMarker,
        @Nullable String versionIdMarker,
        int maxKeys) {
    public VersionQuery {
        if (prefix == null) {
            prefix = "";
        }
        if (delimiter != null && delimiter.isEmpty()) {
            delimiter = null;
        }
        if (keyMarker != null && keyMarker.isEmpty()) {
            keyMarker = null;
        }
        if (versionIdMarker != null && versionIdMarker.isEmpty()) {
            versionIdMarker = null;
        }
        if (maxKeys < 0) {
            throw new IllegalArgumentException("maxKeys must not be negative");
        }
    }
}
