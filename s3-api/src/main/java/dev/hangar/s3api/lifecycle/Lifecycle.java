package dev.hangar.s3api.lifecycle;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * When S3's lifecycle expirations fall due, decided from a bucket's rules and the facts of one version or upload.
 * Only enabled rules whose filter matches take part; when several would act, the one due first does ("if two
 * expiration policies overlap, the shorter expiration policy is honored"), the first listed on a tie.
 *
 * <p><b>Days.</b> "Amazon S3 calculates the time by adding the number of days specified in the rule to the object
 * creation time and rounding the resulting time to the next day midnight UTC": an object created on 2014-01-15 at
 * 10:30 UTC under a rule of 3 days is due on 2014-01-19 at 00:00 UTC. That is the creation day's midnight plus
 * N + 1 days ({@link #dueAfterDays}); an object created at exactly midnight is, like any other that day, due N + 1
 * days later. The same rule times {@code NoncurrentDays} (from when a version became noncurrent) and
 * {@code DaysAfterInitiation} (from when an upload was initiated).
 *
 * <p><b>Date.</b> Current versions the rule matches expire from midnight UTC of the date on, whenever they were
 * created.
 *
 * <p>The methods are pure: the time is an argument, and no rule is validated here
 * ({@link LifecycleValidation#validate} does that when a configuration is put).
 */
public final class Lifecycle {

    private Lifecycle() {
    }

    /**
     * The action to take now on the current version of a key, if any.
     * <ul>
     *   <li>An object expires under {@code Expiration} {@code Days} or {@code Date}:
     *       {@link Expiry.Action#DELETE} in a bucket never versioned, {@link Expiry.Action#ADD_DELETE_MARKER} in a
     *       versioning-enabled or -suspended one.</li>
     *   <li>A delete marker with no noncurrent version beneath it (an "expired object delete marker") is removed,
     *       {@link Expiry.Action#REMOVE_DELETE_MARKER}: at once under {@code ExpiredObjectDeleteMarker}, and under
     *       {@code Days} once the marker is that old ("when you specify the Days tag, Amazon S3 automatically
     *       performs ExpiredObjectDeleteMarker cleanup when the delete markers are old enough"). A marker with
     *       versions beneath it is left alone: removing it would bring an older version back.</li>
     * </ul>
     *
     * @param current the key's current version
     * @param bucketVersioned whether versioning is enabled or suspended on the bucket
     * @param noncurrentVersionsRemain whether the key has any noncurrent version (delete markers included)
     * @param now the time the decision is made at
     */
    public static Optional<Expiry> currentVersionAction(List<LifecycleRule> rules, VersionFacts current,
            boolean bucketVersioned, boolean noncurrentVersionsRemain, Instant now) {
        if (current.isDeleteMarker()) {
            if (noncurrentVersionsRemain) {
                return Optional.empty();
            }
            return earliest(rules, current, rule -> deleteMarkerDue(rule, current))
                    .filter(due -> !now.isBefore(due.at()))
                    .map(due -> new Expiry(Expiry.Action.REMOVE_DELETE_MARKER, due.at(), due.ruleId()));
        }
        Expiry.Action action = bucketVersioned ? Expiry.Action.ADD_DELETE_MARKER : Expiry.Action.DELETE;
        return currentVersionExpiration(rules, current)
                .filter(due -> !now.isBefore(due.at()))
                .map(due -> new Expiry(action, due.at(), due.ruleId()));
    }

    /**
     * When the current version of an object expires under {@code Expiration} {@code Days} or {@code Date}, due
     * or not: what {@code x-amz-expiration} reports on PUT, GET and HEAD. Empty for a delete marker.
     */
    public static Optional<Due> currentVersionExpiration(List<LifecycleRule> rules, VersionFacts current) {
        if (current.isDeleteMarker()) {
            return Optional.empty();
        }
        return earliest(rules, current, rule -> {
            if (rule.expirationDays() != null) {
                return Optional.of(dueAfterDays(current.lastModified(), rule.expirationDays()));
            }
            if (rule.expirationDate() != null) {
                return Optional.of(midnight(rule.expirationDate()));
            }
            return Optional.empty();
        });
    }

    /**
     * Whether a noncurrent version (an object or a delete marker) is to be deleted for good now: it has been
     * noncurrent for {@code NoncurrentDays}, and, when the rule keeps {@code NewerNoncurrentVersions}, at least
     * that many newer noncurrent versions exist.
     *
     * @param becameNoncurrentAt when the version became noncurrent: when its successor was created
     * @param newerNoncurrentCount how many noncurrent versions of the key are newer than this one
     */
    public static boolean noncurrentVersionExpires(List<LifecycleRule> rules, VersionFacts version,
            Instant becameNoncurrentAt, int newerNoncurrentCount, Instant now) {
        return noncurrentVersionExpiration(rules, version, becameNoncurrentAt, newerNoncurrentCount)
                .filter(due -> !now.isBefore(due.at()))
                .isPresent();
    }

    /**
     * When a noncurrent version is to be deleted, due or not; empty when no rule would delete it while this many
     * newer noncurrent versions exist.
     */
    public static Optional<Due> noncurrentVersionExpiration(List<LifecycleRule> rules, VersionFacts version,
            Instant becameNoncurrentAt, int newerNoncurrentCount) {
        return earliest(rules, version, rule -> {
            if (rule.noncurrentDays() == null) {
                return Optional.empty();
            }
            Integer kept = rule.newerNoncurrentVersions();
            if (kept != null && newerNoncurrentCount < kept) {
                return Optional.empty();
            }
            return Optional.of(dueAfterDays(becameNoncurrentAt, rule.noncurrentDays()));
        });
    }

    /** Whether an incomplete multipart upload of this key, initiated then, is to be aborted now. */
    public static boolean abortUpload(List<LifecycleRule> rules, String key, Instant initiated, Instant now) {
        return uploadAbortDate(rules, key, initiated).filter(due -> !now.isBefore(due.at())).isPresent();
    }

    /**
     * When an incomplete multipart upload is to be aborted under {@code AbortIncompleteMultipartUpload}: what
     * {@code x-amz-abort-date} and {@code x-amz-abort-rule-id} report. An upload has no tags and no size yet, so
     * a rule filtering on them never applies to one (S3 refuses such a rule anyway).
     */
    public static Optional<Due> uploadAbortDate(List<LifecycleRule> rules, String key, Instant initiated) {
        @Nullable Due earliest = null;
        for (LifecycleRule rule : rules) {
            RuleFilter filter = rule.filter();
            if (!rule.enabled() || rule.abortIncompleteDays() == null || filter.hasTags() || filter.hasSizeBounds()
                    || !key.startsWith(filter.prefix())) {
                continue;
            }
            Instant at = dueAfterDays(initiated, rule.abortIncompleteDays());
            if (earliest == null || at.isBefore(earliest.at())) {
                earliest = new Due(at, rule.id());
            }
        }
        return Optional.ofNullable(earliest);
    }

    /**
     * {@code days} after {@code start}, rounded to the next midnight UTC: the midnight that begins
     * {@code start}'s day, plus {@code days + 1} days.
     */
    public static Instant dueAfterDays(Instant start, int days) {
        return start.truncatedTo(ChronoUnit.DAYS).plus(days + 1L, ChronoUnit.DAYS);
    }

    /** A delete marker left alone is removed at once under ExpiredObjectDeleteMarker, and when old enough under Days. */
    private static Optional<Instant> deleteMarkerDue(LifecycleRule rule, VersionFacts marker) {
        if (rule.expiredObjectDeleteMarker()) {
            return Optional.of(marker.lastModified());
        }
        if (rule.expirationDays() != null) {
            return Optional.of(dueAfterDays(marker.lastModified(), rule.expirationDays()));
        }
        return Optional.empty();
    }

    private static Optional<Due> earliest(List<LifecycleRule> rules, VersionFacts version,
            Function<LifecycleRule, Optional<Instant>> dueUnder) {
        @Nullable Due earliest = null;
        for (LifecycleRule rule : rules) {
            if (!rule.enabled() || !version.matches(rule.filter())) {
                continue;
            }
            Optional<Instant> at = dueUnder.apply(rule);
            if (at.isPresent() && (earliest == null || at.get().isBefore(earliest.at()))) {
                earliest = new Due(at.get(), rule.id());
            }
        }
        return Optional.ofNullable(earliest);
    }

    private static Instant midnight(LocalDate date) {
        return date.atStartOfDay(ZoneOffset.UTC).toInstant();
    }
}
