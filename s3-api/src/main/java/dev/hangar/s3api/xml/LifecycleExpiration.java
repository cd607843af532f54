package dev.hangar.s3api.xml;

import java.time.Instant;
import java.time.ZoneOffset;
import org.jspecify.annotations.Nullable;

/**
 * A lifecycle rule's {@code Expiration}: exactly one of {@code Date}, {@code Days} and {@code
 * ExpiredObjectDeleteMarker}.
 *
 * @param date the day the current versions expire, at midnight UTC
 * @param days the age, in days, at which the current versions expire; positive
 * @param expiredObjectDeleteMarker whether a delete marker with no noncurrent versions left is
 *     removed; S3 accepts {@code false}, which does nothing
 */
public record LifecycleExpiration(
        @Nullable Instant date, @Nullable Integer days, @Nullable Boolean expiredObjectDeleteMarker) {

    public LifecycleExpiration {
        int set = (date == null ? 0 : 1) + (days == null ? 0 : 1) + (expiredObjectDeleteMarker == null ? 0 : 1);
        if (set != 1) {
            throw new IllegalArgumentException(
                    "an expiration has exactly one of Date, Days and ExpiredObjectDeleteMarker");
        }
        if (days != null && days <= 0) {
            throw new IllegalArgumentException("expiration days must be positive: " + days);
        }
        if (date != null && !isMidnightUtc(date)) {
            throw new IllegalArgumentException("an expiration date is at midnight UTC: " + date);
        }
    }

    public static LifecycleExpiration afterDays(int days) {
        return new LifecycleExpiration(null, days, null);
    }

    public static LifecycleExpiration on(Instant date) {
        return new LifecycleExpiration(date, null, null);
    }

    public static LifecycleExpiration expiredObjectDeleteMarker(boolean expire) {
        return new LifecycleExpiration(null, null, expire);
    }

    static boolean isMidnightUtc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC).toLocalTime().toNanoOfDay() == 0;
    }
}
