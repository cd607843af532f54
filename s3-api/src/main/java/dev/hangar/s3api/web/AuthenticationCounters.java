package dev.hangar.s3api.web;

import dev.hangar.s3api.auth.SignatureScheme;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code hangar.s3.authentications{scheme}}: the S3 requests whose signature was accepted, by scheme
 * ({@code v4-header}, {@code v4-query}, {@code v4-post}, {@code v2-header}, {@code v2-query}, {@code v2-post}),
 * and the anonymous ones ({@code anonymous}). An operator who means to turn Signature Version 2 off sees here
 * whether any client still uses it.
 */
final class AuthenticationCounters {
    static final String NAME = "hangar.s3.authentications";
    static final String ANONYMOUS = "anonymous";

    private final Map<SignatureScheme, Counter> signed = new EnumMap<>(SignatureScheme.class);
    private final Counter anonymous;

    AuthenticationCounters(MeterRegistry registry) {
        for (SignatureScheme scheme : SignatureScheme.values()) {
            signed.put(scheme, counter(registry, scheme.tag()));
        }
        anonymous = counter(registry, ANONYMOUS);
    }

    /** Counts one accepted request; null: an anonymous one. */
    void count(@Nullable SignatureScheme scheme) {
        (scheme == null ? anonymous : signed.get(scheme)).increment();
    }

    private static Counter counter(MeterRegistry registry, String scheme) {
        return Counter.builder(NAME)
                .description("S3 requests whose signature was accepted, by signature version and form; "
                        + "anonymous ones as scheme=anonymous")
                .tag("scheme", scheme)
                .register(registry);
    }
}
