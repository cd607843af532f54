package dev.hangar.s3api.auth;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The parts of an HTTP request that SigV4 covers, exactly as they arrived: the signature is computed over
 * the client's bytes, so nothing here may be decoded or normalized by the HTTP layer first.
 *
 * @param method the request method, for example {@code PUT}
 * @param rawPath the path as received, still percent-encoded, without the query
 * @param rawQuery the query string as received, without the {@code ?}; null or empty when there is none
 * @param headers every header; names are lower-cased here (HTTP names are case-insensitive), and each
 *     received line of a repeated header is one list entry
 */
public record SignedRequest(
        String method, String rawPath, @Nullable String rawQuery, Map<String, List<String>> headers) {

    public SignedRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(rawPath, "rawPath");
        headers = lowerCaseNames(Objects.requireNonNull(headers, "headers"));
    }

    /** The first value of a header, by any letter case of its name. */
    public Optional<String> firstHeader(String name) {
        return HeaderValues.first(headers, name);
    }

    /** Copies the headers with lower-case names, merging names that differed only by case. */
    static Map<String, List<String>> lowerCaseNames(Map<String, List<String>> headers) {
        Map<String, List<String>> merged = new LinkedHashMap<>();
        headers.forEach((name, values) -> merged
                .computeIfAbsent(name.toLowerCase(Locale.ROOT), ignored -> new ArrayList<>())
                .addAll(values));
        Map<String, List<String>> copy = new LinkedHashMap<>();
        merged.forEach((name, values) -> copy.put(name, List.copyOf(values)));
        return Collections.unmodifiableMap(copy);
    }
}
