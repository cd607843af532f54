package dev.hangar.s3api.website;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** What the website endpoint answers a request with. */
public sealed interface WebsiteOutcome {

    /**
     * Send this object's body with this status: 200 for the object asked for, or the error's
     * status (404, 403) for the error document.
     */
    record Serve(String key, int status) implements WebsiteOutcome {
        public Serve {
            Objects.requireNonNull(key, "key is required");
        }
    }

    /**
     * An empty response with this status and {@code Location}: 301 or a routing rule's
     * {@code HttpRedirectCode}, or 302 for a folder asked for without its trailing slash.
     */
    record Redirect(int status, String location) implements WebsiteOutcome {
        public Redirect {
            Objects.requireNonNull(location, "location is required");
        }
    }

    /**
     * S3's own HTML error page, rendered by {@link WebsiteErrorPages#render}, sent with this
     * status.
     *
     * @param key the key looked up (index document suffix included), shown for {@code NoSuchKey}
     *     only, as S3 does; null otherwise
     * @param errorDocumentFailure why the configured error document could not be served instead,
     *     or null when the bucket has none
     */
    record ErrorPage(
            int status,
            String code,
            String message,
            @Nullable String key,
            @Nullable ErrorDocumentFailure errorDocumentFailure) implements WebsiteOutcome {

        public ErrorPage {
            Objects.requireNonNull(code, "code is required");
            Objects.requireNonNull(message, "message is required");
        }
    }

    /**
     * Why the configured error document was not served: shown under "An Error Occurred While
     * Attempting to Retrieve a Custom Error Document".
     *
     * @param key the error document's key, shown for {@code NoSuchKey} only; null otherwise
     */
    record ErrorDocumentFailure(String code, String message, @Nullable String key) {
        public ErrorDocumentFailure {
            Objects.requireNonNull(code, "code is required");
            Objects.requireNonNull(message, "message is required");
        }
    }
}
