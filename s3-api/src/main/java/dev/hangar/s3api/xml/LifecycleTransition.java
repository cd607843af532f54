package dev.hangar.s3api.xml;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A lifecycle rule's {@code Transition}: {@code Date} or {@code Days}, then {@code StorageClass}.
 * Kept so that a configuration with transitions is stored and given back as sent; whether a
 * storage class exists to move to is the caller's to judge.
 *
 * @param date the day current versions move, at midnight UTC
 * @param days the age, in days, at which current versions move; 0 or more
 */
public record LifecycleTransition(@Nullable Instant date, @Nullable Integer days, String storageClass) {
    public LifecycleTransition {
        Objects.requireNonNull(storageClass, "storage class is required");
        if ((date == null) == (days == null)) {
            throw new IllegalArgumentException("a transition has exactly one of Date and Days");
        }
        if (days != null && days < 0) {
            throw new IllegalArgumentException("transition days must not be negative: " + days);
        }
        if (date != null && !LifecycleExpiration.isMidnightUtc(date)) {
            throw new IllegalArgumentException("a transition date is at midnight UTC: " + date);
        }
    }
}
