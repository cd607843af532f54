package dev.hangar.s3api.website;

import org.jspecify.annotations.Nullable;

/**
 * A routing rule's {@code Redirect}: what the {@code Location} is built from. Each part left out
 * comes from the request.
 *
 * @param hostName the host of the {@code Location}; when absent, the request's host
 * @param protocol {@code http} or {@code https}; when absent, the request's protocol
 * @param httpRedirectCode the status, 3XX except 300; when absent, 301
 * @param replaceKeyPrefixWith replaces the rule's {@code KeyPrefixEquals} (or nothing, when the
 *     rule has none) at the start of the requested key
 * @param replaceKeyWith replaces the whole key
 */
public record Redirect(
        @Nullable String hostName,
        @Nullable String protocol,
        @Nullable Integer httpRedirectCode,
        @Nullable String replaceKeyPrefixWith,
        @Nullable String replaceKeyWith) {}
