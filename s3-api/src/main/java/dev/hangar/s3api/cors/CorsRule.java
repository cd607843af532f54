package dev.hangar.s3api.cors;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One {@code CORSRule} of a bucket's CORS configuration, values as the client sent them.
 *
 * @param id the rule's {@code ID}, if it has one
 * @param allowedOrigins origins, each possibly with a {@code *} wildcard; {@code *} alone allows every origin
 * @param allowedMethods among {@code GET}, {@code PUT}, {@code POST}, {@code DELETE} and {@code HEAD}
 * @param allowedHeaders header names a preflight may ask for, possibly with a {@code *} wildcard
 * @param exposeHeaders header names the browser may show the page, sent as {@code Access-Control-Expose-Headers}
 * @param maxAgeSeconds how long a browser may cache the preflight answer, sent as {@code Access-Control-Max-Age}
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
    }
}
