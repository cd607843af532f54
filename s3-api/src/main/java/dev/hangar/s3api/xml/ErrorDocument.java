package dev.hangar.s3api.xml;

import dev.hangar.s3api.S3Error;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * S3's error document. Rendered, in no namespace, as {@code Code}, {@code Message}, {@code
 * Resource} when present, then each extra element in the map's order (AWS names a failure with
 * members of the code's own, such as {@code BucketName} for NoSuchBucket or {@code Key} for
 * NoSuchKey), then {@code RequestId} and {@code HostId} when present. Real S3 puts the request id
 * pair last, after the members that describe the failure.
 *
 * @param extras element name to text, rendered in iteration order; pass a {@link LinkedHashMap}
 */
public record ErrorDocument(
        String code,
        String message,
        @Nullable String resource,
        Map<String, String> extras,
        String requestId,
        @Nullable String hostId) {

    private static final Pattern ELEMENT_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9._-]*");
    private static final Set<String> FIXED_ELEMENTS = Set.of("Code", "Message", "Resource", "RequestId", "HostId");

    public ErrorDocument {
        Objects.requireNonNull(code, "error code is required");
        Objects.requireNonNull(message, "error message is required");
        Objects.requireNonNull(requestId, "request id is required");
        for (var extra : extras.entrySet()) {
            String name = extra.getKey();
            if (!ELEMENT_NAME.matcher(name).matches() || name.regionMatches(true, 0, "xml", 0, 3)) {
                throw new IllegalArgumentException("not an element name: " + name);
            }
            if (FIXED_ELEMENTS.contains(name)) {
                throw new IllegalArgumentException(name + " is a fixed element of the error document, not an extra");
            }
            Objects.requireNonNull(extra.getValue(), () -> "extra element " + name + " has no text");
        }
        // Map.copyOf would lose the order, and the order is what the client sees.
        extras = Collections.unmodifiableMap(new LinkedHashMap<>(extras));
    }

    /** The document for an error code, with no resource and no extras yet. */
    public static ErrorDocument of(S3Error error, String message, String requestId) {
        return new ErrorDocument(error.code(), message, null, Map.of(), requestId, null);
    }

    /** The same document with its {@code Resource} element. */
    public ErrorDocument withResource(String newResource) {
        return new ErrorDocument(code, message, newResource, extras, requestId, hostId);
    }

    /** The same document with one more extra element, after those it already has. */
    public ErrorDocument withExtra(String name, String text) {
        var more = new LinkedHashMap<>(extras);
        if (more.putIfAbsent(name, text) != null) {
            throw new IllegalArgumentException("extra element " + name + " is already set");
        }
        return new ErrorDocument(code, message, resource, more, requestId, hostId);
    }

    /** The same document with its {@code HostId} element. */
    public ErrorDocument withHostId(String newHostId) {
        return new ErrorDocument(code, message, resource, extras, requestId, newHostId);
    }
}
