package dev.hangar.s3api.lifecycle;

import java.time.LocalDate;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One rule of a bucket's lifecycle configuration, as {@code PutBucketLifecycleConfiguration} gives it, holding the
 * expiration actions Hangar takes (transitions between storage classes are not modelled). The record holds what
 * the document said; {@link LifecycleValidation#validate} says whether S3 would accept it.
 *
 * @param id the rule's {@code ID}; {@code null} when the document gave none
 * @param enabled {@code Status} {@code Enabled}; a disabled rule takes no action
 * @param filter the objects the rule applies to
 * @param expirationDays {@code Expiration/Days}: current versions expire this many days after creation
 * @param expirationDate {@code Expiration/Date}: current versions expire from this day's midnight UTC on
 * @param expiredObjectDeleteMarker {@code Expiration/ExpiredObjectDeleteMarker} {@code true}: a delete marker with
 *     no noncurrent version left is removed
 * @param noncurrentDays {@code NoncurrentVersionExpiration/NoncurrentDays}: noncurrent versions are deleted this
 *     many days after they became noncurrent
 * @param newerNoncurrentVersions {@code NoncurrentVersionExpiration/NewerNoncurrentVersions}: that many newest
 *     noncurrent versions are kept whatever their age
 * @param abortIncompleteDays {@code AbortIncompleteMultipartUpload/DaysAfterInitiation}
 */
public record LifecycleRule(
        @Nullable String id,
        boolean enabled,
        RuleFilter filter,
        @Nullable Integer expirationDays,
        @Nullable LocalDate expirationDate,
        boolean expiredObjectDeleteMarker,
        @Nullable Integer noncurrentDays,
        @Nullable Integer newerNoncurrentVersions,
        @Nullable Integer abortIncompleteDays) {

    public LifecycleRule {
        Objects.requireNonNull(filter, "filter");
    }

    /** Whether the rule takes any action at all. */
    public boolean hasAction() {
        return expirationDays != null || expirationDate != null || expiredObjectDeleteMarker
                || noncurrentDays != null || newerNoncurrentVersions != null || abortIncompleteDays != null;
    }
}
