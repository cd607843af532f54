package dev.hangar.s3api.website;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A request to a bucket's website endpoint.
 *
 * @param path the request path, percent-decoded, starting with {@code /} (or empty for the root)
 * @param host the {@code Host} the request was sent to, used for redirects that name no host
 * @param protocol {@code http} or {@code https}, used for redirects that name no protocol
 * @param rawQuery the query string as received, without the {@code ?}; kept by {@code
 *     RedirectAllRequestsTo} only, as S3 does
 */
public record WebsiteRequest(String path, String host, String protocol, @Nullable String rawQuery) {
    public WebsiteRequest {
        Objects.requireNonNull(path, "path is required");
        Objects.requireNonNull(host, "host is required");
        Objects.requireNonNull(protocol, "protocol is required");
    }

    /** A request without a query string. */
    public WebsiteRequest(String path, String host, String protocol) {
        this(path, host, protocol, null);
    }

    /** The requested key: the path without its leading slash, before any index document is added. */
    public String key() {
        return path.startsWith("/") ? path.substring(1) : path;
    }
}
