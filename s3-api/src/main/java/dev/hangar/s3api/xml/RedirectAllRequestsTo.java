package dev.hangar.s3api.xml;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A website's {@code RedirectAllRequestsTo}: {@code HostName}, then {@code Protocol} when set.
 *
 * @param protocol {@code http} or {@code https}; null to keep the request's
 */
public record RedirectAllRequestsTo(String hostName, @Nullable String protocol) {
    public RedirectAllRequestsTo {
        Objects.requireNonNull(hostName, "host name is required");
    }
}
