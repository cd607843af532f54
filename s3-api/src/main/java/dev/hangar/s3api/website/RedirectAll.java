package dev.hangar.s3api.website;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * {@code RedirectAllRequestsTo}: every request to the website goes to this host, path kept.
 *
 * @param protocol {@code http} or {@code https}; when absent, the protocol of the request
 */
public record RedirectAll(String hostName, @Nullable String protocol) {
    public RedirectAll {
        Objects.requireNonNull(hostName, "host name is required");
    }
}
