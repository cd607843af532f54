package dev.hangar.s3api.xml;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A bucket's Object Lock configuration, the document of Put/GetObjectLockConfiguration. Rendered as
 * {@code ObjectLockEnabled} ({@code Enabled}, the only value there is), then {@code Rule} holding
 * {@code DefaultRetention} ({@code Mode}, then {@code Days} or {@code Years}) when the bucket has a
 * default retention. A request without {@code ObjectLockEnabled} is refused, so a parsed
 * configuration always enables Object Lock; one without a rule removes the default retention.
 *
 * @param defaultRetention the retention new object versions get, or null for none
 */
public record ObjectLockConfiguration(@Nullable DefaultRetention defaultRetention) {

    /**
     * A bucket's {@code DefaultRetention}: a mode and a period of exactly one of days and years.
     *
     * @param days a positive number of days, at most {@link S3Xml#MAXIMUM_RETENTION_DAYS}
     * @param years a positive number of years, at most {@link S3Xml#MAXIMUM_RETENTION_YEARS}
     */
    public record DefaultRetention(RetentionMode mode, @Nullable Integer days, @Nullable Integer years) {
        public DefaultRetention {
            Objects.requireNonNull(mode, "mode is required");
            if ((days == null) == (years == null)) {
                throw new IllegalArgumentException("a default retention has exactly one of Days and Years");
            }
            if (days != null && (days <= 0 || days > S3Xml.MAXIMUM_RETENTION_DAYS)) {
                throw new IllegalArgumentException("retention days out of range: " + days);
            }
            if (years != null && (years <= 0 || years > S3Xml.MAXIMUM_RETENTION_YEARS)) {
                throw new IllegalArgumentException("retention years out of range: " + years);
            }
        }

        public static DefaultRetention days(RetentionMode mode, int days) {
            return new DefaultRetention(mode, days, null);
        }

        public static DefaultRetention years(RetentionMode mode, int years) {
            return new DefaultRetention(mode, null, years);
        }
    }
}
