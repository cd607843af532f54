package dev.hangar.s3api.cors;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The answer to a preflight a rule allows: 200 with an empty body and these headers.
 *
 * @param rule the first rule that allowed the preflight
 * @param headers response header name to value, in the order S3 sends them
 */
public record PreflightAnswer(CorsRule rule, Map<String, String> headers) {
    public PreflightAnswer {
        Objects.requireNonNull(rule, "rule is required");
        // Map.copyOf would lose the order.
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }
}
