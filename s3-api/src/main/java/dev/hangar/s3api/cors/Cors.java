package dev.hangar.s3api.cors;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * How S3 answers cross-origin requests with a bucket's CORS rules, and which rules it accepts.
 *
 * <p>What S3 sends, from the responses AWS documents and those recorded against it: the origin
 * itself in {@code Access-Control-Allow-Origin} and {@code Access-Control-Allow-Credentials: true},
 * or {@code *} and no credentials header when the origin pattern that matched is {@code *} alone;
 * every method of the matched rule, joined by {@code ", "}; for a preflight, the requested header
 * names in lower case, in the order asked; the rule's expose headers and max age when it has them;
 * and always {@code Vary: Origin, Access-Control-Request-Headers, Access-Control-Request-Method}.
 */
public final class Cors {
    public static final String ALLOW_ORIGIN = "Access-Control-Allow-Origin";
    public static final String ALLOW_METHODS = "Access-Control-Allow-Methods";
    public static final String ALLOW_HEADERS = "Access-Control-Allow-Headers";
    public static final String EXPOSE_HEADERS = "Access-Control-Expose-Headers";
    public static final String MAX_AGE = "Access-Control-Max-Age";
    public static final String ALLOW_CREDENTIALS = "Access-Control-Allow-Credentials";
    public static final String VARY = "Vary";
    /** The {@code Vary} value S3 sends with every CORS answer. */
    public static final String VARY_VALUE = "Origin, Access-Control-Request-Headers, Access-Control-Request-Method";

    /** The most rules one configuration may hold. */
    public static final int MAX_RULES = 100;

    /** The methods an {@code AllowedMethod} may name; S3 refuses every other, {@code OPTIONS} included. */
    private static final Set<String> METHODS = Set.of("GET", "PUT", "POST", "DELETE", "HEAD");

    private Cors() {}

    /**
     * The answer to a preflight ({@code OPTIONS} with {@code Origin} and
     * {@code Access-Control-Request-Method}), or empty when no rule allows it: the caller then
     * answers {@link #preflightNotAllowed()}.
     *
     * @param origin the {@code Origin} header
     * @param requestMethod the {@code Access-Control-Request-Method} header
     * @param requestHeaders the {@code Access-Control-Request-Headers} header, one list element
     *     per header line or per name: each element is split at commas, blank names are ignored
     */
    public static Optional<PreflightAnswer> preflight(
            CorsConfiguration configuration, String origin, String requestMethod, List<String> requestHeaders) {
        List<String> names = headerNames(requestHeaders);
        for (CorsRule rule : configuration.rules()) {
            @Nullable String matchedOrigin = matchedOrigin(rule, origin);
            if (matchedOrigin != null
                    && rule.allowedMethods().contains(requestMethod)
                    && allHeadersAllowed(rule, names)) {
                Map<String, String> headers = new LinkedHashMap<>();
                headers.put(ALLOW_ORIGIN, allowOrigin(matchedOrigin, origin));
                headers.put(ALLOW_METHODS, String.join(", ", rule.allowedMethods()));
                if (!names.isEmpty()) {
                    headers.put(ALLOW_HEADERS, String.join(", ", names));
                }
                addRuleHeaders(headers, rule, matchedOrigin);
                return Optional.of(new PreflightAnswer(rule, headers));
            }
        }
        return Optional.empty();
    }

    /**
     * The CORS headers to add to a request that is not a preflight, or empty when no rule allows
     * it; S3 serves such a request all the same, without CORS headers. Request headers are not
     * checked: only a preflight asks about them.
     *
     * @param origin the {@code Origin} header; a request without one is not a CORS request and
     *     gets no CORS headers, so do not call this for it
     * @param method the request's method; S3 matches the {@code Access-Control-Request-Method}
     *     header instead when a non-{@code OPTIONS} request carries one, so pass that if present
     * @return header name to value, in the order S3 sends them
     */
    public static Optional<Map<String, String>> actualRequestHeaders(
            CorsConfiguration configuration, String origin, String method) {
        for (CorsRule rule : configuration.rules()) {
            @Nullable String matchedOrigin = matchedOrigin(rule, origin);
            if (matchedOrigin != null && rule.allowedMethods().contains(method)) {
                Map<String, String> headers = new LinkedHashMap<>();
                headers.put(ALLOW_ORIGIN, allowOrigin(matchedOrigin, origin));
                headers.put(ALLOW_METHODS, String.join(", ", rule.allowedMethods()));
                addRuleHeaders(headers, rule, matchedOrigin);
                return Optional.of(Collections.unmodifiableMap(headers));
            }
        }
        return Optional.empty();
    }

    /**
     * Refuses a configuration PutBucketCors refuses: no rule or more than {@value #MAX_RULES}
     * ({@code MalformedXML}), a rule without an origin or a method ({@code MalformedXML}), a method
     * other than GET, PUT, POST, DELETE and HEAD, or an origin or allowed header with more than
     * one {@code *} ({@code InvalidRequest}).
     *
     * @throws S3Exception with the error and message S3 answers
     */
    public static void validate(CorsConfiguration configuration) {
        List<CorsRule> rules = configuration.rules();
        if (rules.isEmpty() || rules.size() > MAX_RULES) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
        for (CorsRule rule : rules) {
            if (rule.allowedOrigins().isEmpty() || rule.allowedMethods().isEmpty()) {
                throw new S3Exception(S3Error.MALFORMED_XML);
            }
            for (String method : rule.allowedMethods()) {
                if (!METHODS.contains(method)) {
                    throw new S3Exception(S3Error.INVALID_REQUEST,
                            "Found unsupported HTTP method in CORS config. Unsupported method is " + method);
                }
            }
            for (String origin : rule.allowedOrigins()) {
                if (wildcards(origin) > 1) {
                    throw new S3Exception(S3Error.INVALID_REQUEST,
                            "AllowedOrigin \"" + origin + "\" can not have more than one wildcard.");
                }
            }
            for (String header : rule.allowedHeaders()) {
                if (wildcards(header) > 1) {
                    throw new S3Exception(S3Error.INVALID_REQUEST,
                            "AllowedHeader \"" + header + "\" can not have more than one wildcard.");
                }
            }
        }
    }

    /**
     * 403 {@code AccessForbidden} for a preflight no rule allows. AWS's error document adds
     * {@code <Method>} (the requested method) and {@code <ResourceType>} ({@code OBJECT} for a key,
     * {@code BUCKET} for the bucket) after the message.
     */
    public static S3Exception preflightNotAllowed() {
        return new S3Exception(S3Error.ACCESS_FORBIDDEN);
    }

    /**
     * 403 {@code AccessForbidden} for a preflight to a bucket with no CORS configuration. AWS's
     * error document adds {@code <Method>} (the requested method, or {@code OPTIONS} when none was
     * requested) and {@code <ResourceType>BUCKET</ResourceType>}.
     */
    public static S3Exception notEnabled() {
        return new S3Exception(S3Error.ACCESS_FORBIDDEN, "CORSResponse: CORS is not enabled for this bucket.");
    }

    /** 400 {@code BadRequest} for an {@code OPTIONS} request without an {@code Origin} header. */
    public static S3Exception originMissing() {
        return new S3Exception(S3Error.BAD_REQUEST, "Insufficient information. Origin request header needed.");
    }

    private static void addRuleHeaders(Map<String, String> headers, CorsRule rule, String matchedOrigin) {
        if (!rule.exposeHeaders().isEmpty()) {
            headers.put(EXPOSE_HEADERS, String.join(", ", rule.exposeHeaders()));
        }
        if (rule.maxAgeSeconds() != null) {
            headers.put(MAX_AGE, Integer.toString(rule.maxAgeSeconds()));
        }
        if (!matchedOrigin.equals("*")) {
            headers.put(ALLOW_CREDENTIALS, "true");
        }
        headers.put(VARY, VARY_VALUE);
    }

    /** {@code *} when the pattern that matched allows every origin, else the origin itself. */
    private static String allowOrigin(String matchedOrigin, String origin) {
        return matchedOrigin.equals("*") ? "*" : origin;
    }

    /** The rule's first origin pattern that matches, or null. */
    private static @Nullable String matchedOrigin(CorsRule rule, String origin) {
        for (String pattern : rule.allowedOrigins()) {
            if (Wildcards.matches(pattern, origin)) {
                return pattern;
            }
        }
        return null;
    }

    private static boolean allHeadersAllowed(CorsRule rule, List<String> names) {
        for (String name : names) {
            boolean allowed = false;
            for (String pattern : rule.allowedHeaders()) {
                if (Wildcards.matches(pattern.toLowerCase(Locale.ROOT), name)) {
                    allowed = true;
                    break;
                }
            }
            if (!allowed) {
                return false;
            }
        }
        return true;
    }

    /** The requested header names, lower case, in the order given, blank list elements dropped. */
    private static List<String> headerNames(List<String> requestHeaders) {
        List<String> names = new ArrayList<>();
        for (String line : requestHeaders) {
            for (String name : line.split(",", -1)) {
                String trimmed = name.strip();
                if (!trimmed.isEmpty()) {
                    names.add(trimmed.toLowerCase(Locale.ROOT));
                }
            }
        }
        return names;
    }

    private static long wildcards(String pattern) {
        return pattern.chars().filter(c -> c == '*').count();
    }
}
