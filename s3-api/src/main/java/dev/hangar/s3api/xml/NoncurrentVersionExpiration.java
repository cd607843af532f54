package dev.hangar.s3api.xml;

import org.jspecify.annotations.Nullable;

/**
 * A lifecycle rule's {@code NoncurrentVersionExpiration}: {@code NoncurrentDays}, then {@code
 * NewerNoncurrentVersions} when set.
 *
 * @param noncurrentDays how many days after becoming noncurrent a version expires; positive
 * @param newerNoncurrentVersions how many newer noncurrent versions are kept regardless; positive,
 *     or null
 */
public record NoncurrentVersionExpiration(int noncurrentDays, @Nullable Integer newerNoncurrentVersions) {
    public NoncurrentVersionExpiration {
        if (noncurrentDays <= 0) {
            throw new IllegalArgumentException("noncurrent days must be positive: " + noncurrentDays);
        }
        if (newerNoncurrentVersions != null && newerNoncurrentVersions <= 0) {
            throw new IllegalArgumentException(
                    "newer noncurrent versions must be positive: " + newerNoncurrentVersions);
        }
    }

    public NoncurrentVersionExpiration(int noncurrentDays) {
        this(noncurrentDays, null);
    }
}
