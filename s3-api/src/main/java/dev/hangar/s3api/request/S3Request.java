package dev.hangar.s3api.request;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * An S3 request after addressing has been resolved: which bucket and key it names (path-style or
 * virtual-host-style alike), its decoded query parameters and its headers.
 *
 * @param host the Host header as received, used to build {@code Location} values
 * @param secure whether the request came over TLS (to this listener, or to a trusted proxy that says so): S3
 *     takes customer-provided encryption keys only over a secure connection
 */
public record S3Request(
        String method,
        @Nullable String bucket,
        @Nullable String key,
        Map<String, List<String>> query,
        RequestHeaders headers,
        String host,
        String requestId,
        boolean secure) {

    public S3Request {
        query = Map.copyOf(query);
    }

    /** A request that came over plain HTTP. */
    public S3Request(String method, @Nullable String bucket, @Nullable String key, Map<String, List<String>> query,
            RequestHeaders headers, String host, String requestId) {
        this(method, bucket, key, query, headers, host, requestId, false);
    }

    public boolean hasParameter(String name) {
        return query.containsKey(name);
    }

    public @Nullable String parameter(String name) {
        List<String> values = query.get(name);
        return values == null || values.isEmpty() ? null : values.getFirst();
    }

    public @Nullable String header(String name) {
        return headers.first(name);
    }

    /** The bucket, for operations whose routing guarantees one. */
    public String requireBucket() {
        if (bucket == null) {
            throw new IllegalStateException("operation routed without a bucket");
        }
        return bucket;
    }

    /** The key, for operations whose routing guarantees one. */
    public String requireKey() {
        if (key == null) {
            throw new IllegalStateException("operation routed without a key");
        }
        return key;
    }
}
