package dev.hangar.s3api.semantics;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Dates in the forms S3 puts them in headers (RFC 7231) and in XML (ISO 8601 with milliseconds). */
public final class HttpDates {
    private static final DateTimeFormatter HTTP =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    private HttpDates() {}

    public static String http(Instant instant) {
        return HTTP.format(instant);
    }
}
