package dev.hangar.s3api.xml;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One {@code RoutingRule} of a website configuration: {@code Condition} when present, then {@code
 * Redirect}.
 *
 * @param condition when the rule applies, or null for every request
 */
public record RoutingRule(@Nullable Condition condition, Redirect redirect) {
    public RoutingRule {
        Objects.requireNonNull(redirect, "redirect is required");
    }

    /**
     * A rule's {@code Condition}: {@code KeyPrefixEquals} then {@code HttpErrorCodeReturnedEquals},
     * each when set, at least one of them (S3 refuses an empty condition).
     *
     * @param httpErrorCodeReturnedEquals a 4XX or 5XX status
     */
    public record Condition(@Nullable String keyPrefixEquals, @Nullable Integer httpErrorCodeReturnedEquals) {
        public Condition {
            if (keyPrefixEquals == null && httpErrorCodeReturnedEquals == null) {
                throw new IllegalArgumentException("a condition names a key prefix, an error code or both");
            }
        }
    }

    /**
     * A rule's {@code Redirect}: {@code Protocol}, {@code HostName}, {@code ReplaceKeyPrefixWith}
     * or {@code ReplaceKeyWith}, {@code HttpRedirectCode}, each when set (the 2006 schema's
     * sequence). Each part left out is taken from the request.
     *
     * @param protocol {@code http} or {@code https}
     * @param httpRedirectCode a 3XX status other than 300
     */
    public record Redirect(
            @Nullable String protocol,
            @Nullable String hostName,
            @Nullable String replaceKeyPrefixWith,
            @Nullable String replaceKeyWith,
            @Nullable Integer httpRedirectCode) {

        public Redirect {
            if (replaceKeyPrefixWith != null && replaceKeyWith != null) {
                throw new IllegalArgumentException("a redirect replaces the key prefix or the key, not both");
            }
        }
    }
}
