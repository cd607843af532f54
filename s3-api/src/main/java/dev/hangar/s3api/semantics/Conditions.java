package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.S3Request;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * HTTP conditional requests as S3 evaluates them (RFC 7232 with S3's precedence): on GET and HEAD,
 * and on the source of a copy.
 */
final class Conditions {

    /** What a GET or HEAD precondition check decided. */
    enum Outcome {
        PROCEED,
        NOT_MODIFIED
    }

    private Conditions() {}

    /**
     * GET and HEAD: If-Match / If-Unmodified-Since failing → 412; If-None-Match / If-Modified-Since
     * failing → 304. When If-Match holds, If-Unmodified-Since is ignored; when If-None-Match is
     * present, If-Modified-Since is ignored.
     */
    static Outcome forRead(S3Request request, String etag, Instant lastModified) {
        return evaluate(request.header("if-match"), request.header("if-unmodified-since"),
                request.header("if-none-match"), request.header("if-modified-since"), etag, lastModified, false);
    }

    /** The {@code x-amz-copy-source-if-*} headers of a copy: any failure is 412. */
    static void forCopySource(S3Request request, String etag, Instant lastModified) {
        evaluate(request.header("x-amz-copy-source-if-match"), request.header("x-amz-copy-source-if-unmodified-since"),
                request.header("x-amz-copy-source-if-none-match"),
                request.header("x-amz-copy-source-if-modified-since"), etag, lastModified, true);
    }

    private static Outcome evaluate(@Nullable String ifMatch, @Nullable String ifUnmodifiedSince,
            @Nullable String ifNoneMatch, @Nullable String ifModifiedSince, String etag, Instant lastModified,
            boolean copySource) {
        Instant modified = lastModified.truncatedTo(ChronoUnit.SECONDS);
        if (ifMatch != null) {
            if (!matchesAny(ifMatch, etag)) {
                throw preconditionFailed(copySource ? "x-amz-copy-source-if-match" : "If-Match");
            }
        } else if (ifUnmodifiedSince != null) {
            Optional<Instant> since = parseDate(ifUnmodifiedSince);
            if (since.isPresent() && modified.isAfter(since.get())) {
                throw preconditionFailed(copySource ? "x-amz-copy-source-if-unmodified-since" : "If-Unmodified-Since");
            }
        }
        if (ifNoneMatch != null) {
            if (matchesAny(ifNoneMatch, etag)) {
                return notModified(copySource, "x-amz-copy-source-if-none-match");
            }
        } else if (ifModifiedSince != null) {
            Optional<Instant> since = parseDate(ifModifiedSince);
            if (since.isPresent() && !modified.isAfter(since.get())) {
                return notModified(copySource, "x-amz-copy-source-if-modified-since");
            }
        }
        return Outcome.PROCEED;
    }

    private static Outcome notModified(boolean copySource, String header) {
        if (copySource) {
            throw preconditionFailed(header);
        }
        return Outcome.NOT_MODIFIED;
    }

    /** Whether a list of entity tags ({@code "a", "b"} or {@code *}) contains this one. */
    static boolean matchesAny(String header, String etag) {
        return Arrays.stream(header.split(","))
                .map(String::trim)
                .map(tag -> tag.startsWith("W/") ? tag.substring(2) : tag)
                .anyMatch(tag -> tag.equals("*") || Etags.sameTag(tag, etag));
    }

    /** HTTP dates; S3 ignores a condition whose date it cannot read. */
    private static Optional<Instant> parseDate(String value) {
        try {
            return Optional.of(ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
        } catch (DateTimeParseException notHttpDate) {
            try {
                return Optional.of(Instant.parse(value.trim()));
            } catch (DateTimeParseException notIsoEither) {
                return Optional.empty();
            }
        }
    }

    private static S3Exception preconditionFailed(String header) {
        return new S3Exception(S3Error.PRECONDITION_FAILED,
                "At least one of the pre-conditions you specified did not hold (" + header + ").");
    }
}
