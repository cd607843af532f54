package dev.hangar.s3api.xml;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One {@code DeleteMarker} of ListObjectVersions: {@code Key}, {@code VersionId}, {@code
 * IsLatest}, {@code LastModified}, then {@code Owner} when present. A delete marker has no ETag,
 * size or storage class, and S3 sends none.
 */
public record DeleteMarkerEntry(
        String key, String versionId, boolean isLatest, Instant lastModified, @Nullable Owner owner)
        implements VersionListEntry {

    public DeleteMarkerEntry {
        Objects.requireNonNull(key, "key is required");
        Objects.requireNonNull(versionId, "version id is required; the null version is \"null\"");
        Objects.requireNonNull(lastModified, "last modified is required");
    }
}
