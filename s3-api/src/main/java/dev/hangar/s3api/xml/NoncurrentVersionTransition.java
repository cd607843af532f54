package dev.hangar.s3api.xml;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A lifecycle rule's {@code NoncurrentVersionTransition}: {@code NoncurrentDays}, {@code
 * StorageClass}, then {@code NewerNoncurrentVersions} when set (the service model's order).
 *
 * @param noncurrentDays days after becoming noncurrent; 0 or more
 */
public record NoncurrentVersionTransition(
        int noncurrentDays, String storageClass, @Nullable Integer newerNoncurrentVersions) {

    public NoncurrentVersionTransition {
        Objects.requireNonNull(storageClass, "storage class is required");
        if (noncurrentDays < 0) {
            throw new IllegalArgumentException("noncurrent days must not be negative: " + noncurrentDays);
        }
        if (newerNoncurrentVersions != null && newerNoncurrentVersions <= 0) {
            throw new IllegalArgumentException(
                    "newer noncurrent versions must be positive: " + newerNoncurrentVersions);
        }
    }
}
