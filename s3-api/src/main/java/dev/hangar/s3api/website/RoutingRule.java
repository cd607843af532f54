package dev.hangar.s3api.website;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One {@code RoutingRule}. With neither condition it applies to every request; with both, both
 * must hold.
 *
 * @param keyPrefixEquals the {@code Condition}'s {@code KeyPrefixEquals}: the requested key must start with it
 * @param httpErrorCodeReturnedEquals the {@code Condition}'s {@code HttpErrorCodeReturnedEquals}:
 *     the rule applies only when looking the key up failed with this status
 */
public record RoutingRule(
        @Nullable String keyPrefixEquals, @Nullable Integer httpErrorCodeReturnedEquals, Redirect redirect) {

    public RoutingRule {
        Objects.requireNonNull(redirect, "redirect is required");
    }
}
