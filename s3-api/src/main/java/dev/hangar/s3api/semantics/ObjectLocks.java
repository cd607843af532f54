package dev.hangar.s3api.semantics;

import dev.hangar.metadata.ObjectLockedException;
import dev.hangar.metadata.command.VersionChange;
import dev.hangar.metadata.ObjectLock;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.RetentionMode;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.S3Request;
import dev.hangar.s3api.xml.LegalHold;
import dev.hangar.s3api.xml.ObjectLockConfiguration;
import dev.hangar.s3api.xml.Retention;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * What S3 Object Lock forbids, decided here: the store records retention and legal hold, this class
 * reads them from requests and answers whether a version may be removed or its retention changed.
 *
 * <p>A retention is active while its date lies ahead. An active COMPLIANCE retention can be neither
 * shortened nor removed nor turned into GOVERNANCE, by anyone; an active GOVERNANCE one only with
 * {@code x-amz-bypass-governance-retention: true}. A legal hold forbids removal until it is lifted.
 * Lengthening a retention, or turning GOVERNANCE into COMPLIANCE, is always allowed. Hangar checks
 * the bypass header alone: whether the caller holds {@code s3:BypassGovernanceRetention} is the
 * access layer's to decide (the root key always does).
 */
final class ObjectLocks {
    static final String MODE_HEADER = "x-amz-object-lock-mode";
    static final String RETAIN_UNTIL_HEADER = "x-amz-object-lock-retain-until-date";
    static final String LEGAL_HOLD_HEADER = "x-amz-object-lock-legal-hold";
    static final String BYPASS_HEADER = "x-amz-bypass-governance-retention";

    private static final DateTimeFormatter ISO_MILLIS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private ObjectLocks() {}

    /** Whether a request asks for any object lock setting in its headers. */
    static boolean requested(Function<String, @Nullable String> headers) {
        return headers.apply(MODE_HEADER) != null || headers.apply(RETAIN_UNTIL_HEADER) != null
                || headers.apply(LEGAL_HOLD_HEADER) != null;
    }

    /**
     * The lock a write's headers ask for (PutObject, CopyObject, CreateMultipartUpload), null if none.
     * Checks only the headers; whether the bucket has Object Lock is the caller's to check first.
     *
     * @param now for the check that a retain-until date lies ahead; null to skip it (headers
     *     checked earlier, e.g. those a multipart upload stored at its creation)
     */
    static @Nullable ObjectLock fromHeaders(Function<String, @Nullable String> headers, @Nullable Instant now) {
        String mode = headers.apply(MODE_HEADER);
        String until = headers.apply(RETAIN_UNTIL_HEADER);
        String hold = headers.apply(LEGAL_HOLD_HEADER);
        if (mode == null && until == null && hold == null) {
            return null;
        }
        if ((mode == null) != (until == null)) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT,
                    "x-amz-object-lock-retain-until-date and x-amz-object-lock-mode must both be supplied");
        }
        RetentionMode retentionMode = mode == null ? null : mode(mode);
        Instant retainUntil = until == null ? null : date(until);
        if (retainUntil != null && now != null && !retainUntil.isAfter(now)) {
            throw pastDate();
        }
        boolean legalHold = false;
        if (hold != null) {
            legalHold = switch (hold.strip()) {
                case "ON" -> true;
                case "OFF" -> false;
                default -> throw new S3Exception(S3Error.INVALID_ARGUMENT, "Legal Hold must be either of 'ON' or 'OFF'");
            };
        }
        return new ObjectLock(retentionMode, retainUntil, legalHold);
    }

    /** The lock of a new version of a bucket with this configuration: what was asked, else the default retention. */
    static @Nullable ObjectLock forNewVersion(@Nullable ObjectLock requested, @Nullable ObjectLockConfiguration bucket,
            Instant now) {
        if (requested != null && requested.retentionMode() != null) {
            return requested;
        }
        ObjectLockConfiguration.DefaultRetention retention = bucket == null ? null : bucket.defaultRetention();
        if (retention == null) {
            return requested;
        }
        Instant until = retention.days() != null
                ? now.atOffset(ZoneOffset.UTC).plusDays(retention.days()).toInstant()
                : now.atOffset(ZoneOffset.UTC).plusYears(retention.years()).toInstant();
        return new ObjectLock(mode(retention.mode()), until, requested != null && requested.legalHold());
    }

    /** The {@code x-amz-object-lock-*} headers of a GET or HEAD of this version. */
    static Map<String, String> responseHeaders(ObjectVersion version) {
        Map<String, String> headers = new LinkedHashMap<>();
        ObjectLock lock = version.lock();
        if (lock == null) {
            return headers;
        }
        if (lock.retentionMode() != null && lock.retainUntil() != null) {
            headers.put(MODE_HEADER, lock.retentionMode().name());
            headers.put(RETAIN_UNTIL_HEADER, format(lock.retainUntil()));
        }
        headers.put(LEGAL_HOLD_HEADER, lock.legalHold() ? "ON" : "OFF");
        return headers;
    }

    static boolean bypass(S3Request request) {
        return "true".equalsIgnoreCase(String.valueOf(request.header(BYPASS_HEADER)).strip());
    }

    /**
     * The change a PutObjectRetention asks for; what the current retention allows is the store's to
     * check when it applies it.
     *
     * @throws S3Exception InvalidArgument for a date not ahead of now
     */
    static VersionChange.SetRetention retentionChange(Retention requested, boolean bypass, Instant now) {
        Instant until = requested.retainUntilDate();
        if (until != null && !until.isAfter(now)) {
            throw pastDate();
        }
        RetentionMode mode = requested.mode() == null ? null : mode(requested.mode());
        return new VersionChange.SetRetention(mode, until, now, bypass);
    }

    /**
     * Runs a store mutation that checks Object Lock, answering S3's AccessDenied when the lock
     * protects the version.
     */
    static <T> T enforced(java.util.function.Supplier<T> mutation) {
        try {
            return mutation.get();
        } catch (ObjectLockedException e) {
            throw protectedVersion();
        }
    }

    static dev.hangar.s3api.xml.RetentionMode toDocument(RetentionMode mode) {
        return switch (mode) {
            case GOVERNANCE -> dev.hangar.s3api.xml.RetentionMode.GOVERNANCE;
            case COMPLIANCE -> dev.hangar.s3api.xml.RetentionMode.COMPLIANCE;
        };
    }

    /** The error of a lock header or sub-resource on a bucket without Object Lock. */
    static S3Exception notEnabled() {
        return new S3Exception(S3Error.INVALID_REQUEST, "Bucket is missing Object Lock Configuration");
    }

    static String format(Instant instant) {
        return ISO_MILLIS.format(instant);
    }

    private static boolean active(ObjectLock lock, Instant now) {
        return lock.retentionMode() != null && lock.retainUntil() != null && lock.retainUntil().isAfter(now);
    }

    private static RetentionMode mode(dev.hangar.s3api.xml.RetentionMode mode) {
        return switch (mode) {
            case GOVERNANCE -> RetentionMode.GOVERNANCE;
            case COMPLIANCE -> RetentionMode.COMPLIANCE;
        };
    }

    private static RetentionMode mode(String header) {
        return switch (header.strip()) {
            case "GOVERNANCE" -> RetentionMode.GOVERNANCE;
            case "COMPLIANCE" -> RetentionMode.COMPLIANCE;
            default -> throw new S3Exception(S3Error.INVALID_ARGUMENT, "Unknown wormMode directive.");
        };
    }

    private static Instant date(String header) {
        String value = header.strip();
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException notInstant) {
            try {
                return OffsetDateTime.parse(value).toInstant();
            } catch (DateTimeParseException notOffset) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT,
                        "The retain until date must be an ISO 8601 date and time: " + value);
            }
        }
    }

    private static S3Exception pastDate() {
        return new S3Exception(S3Error.INVALID_ARGUMENT, "The retain until date must be in the future!");
    }

    /** S3's answer to a mutation that Object Lock forbids. */
    static S3Exception protectedVersion() {
        return new S3Exception(S3Error.ACCESS_DENIED, "Access Denied because object protected by object lock.");
    }
}
