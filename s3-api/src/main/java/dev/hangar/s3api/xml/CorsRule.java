package dev.hangar.s3api.xml;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One {@code CORSRule}. Rendered as {@code ID}?, every {@code AllowedOrigin}, every {@code
 * AllowedMethod}, every {@code AllowedHeader}, every {@code ExposeHeader}, then {@code
 * MaxAgeSeconds}?: the order of the API reference's samples, origins and methods first. S3 accepts
 * the elements in any order and clients read them by name. Values are kept as sent.
 *
 * @param id the rule's {@code ID}, or null
 * @param allowedOrigins at least one; each may hold one {@code *}
 * @param allowedMethods at least one, among {@code GET}, {@code PUT}, {@code POST}, {@code DELETE}
 *     and {@code HEAD}
 * @param allowedHeaders header names a preflight may ask for; each may hold one {@code *}
 * @param exposeHeaders header names a browser may show the page; no wildcard
 * @param maxAgeSeconds how long a browser may cache the preflight answer, or null
 */
public record CorsRule(
        @Nullable String id,
        List<String> allowedOrigins,
        List<String> allowedMethods,
        List<String> allowedHeaders,
        List<String> exposeHeaders,
        @Nullable Integer maxAgeSeconds) {

    public CorsRule {
        allowedOrigins = List.copyOf(allowedOrigins);
        allowedMethods = List.copyOf(allowedMethods);
        allowedHeaders = List.copyOf(allowedHeaders);
        exposeHeaders = List.copyOf(exposeHeaders);
        if (allowedOrigins.isEmpty() || allowedMethods.isEmpty()) {
            throw new IllegalArgumentException("a CORS rule names at least one origin and one method");
        }
        if (maxAgeSeconds != null && maxAgeSeconds < 0) {
            throw new IllegalArgumentException("max age must not be negative: " + maxAgeSeconds);
        }
    }
}
