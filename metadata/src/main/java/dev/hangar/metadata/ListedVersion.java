package dev.hangar.metadata;

/**
 * One entry of a version listing.
 *
 * @param latest whether this is the newest version of its key (S3's {@code IsLatest}); a delete
 *     marker can be the latest
 */
public record ListedVersion(ObjectVersion version, boolean latest) {
    public ListedVersion {
        if (version == null) {
            throw new IllegalArgumentException("version is required");
        }
    }
}
