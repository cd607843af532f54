package dev.hangar.s3api.access;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * One request as a bucket policy sees it.
 *
 * <p>The context holds the request's condition keys ({@code aws:SourceIp}, {@code aws:SecureTransport},
 * {@code aws:CurrentTime}, {@code s3:prefix}, {@code s3:ExistingObjectTag/<tag key>}, …), each with its
 * values: one for most keys, several for multivalued keys such as {@code s3:RequestObjectTagKeys}. Key
 * names are compared without regard to case, as IAM does; values are kept as given. A key with no
 * values is absent. {@code aws:username} and {@code aws:userid}, when the context has no value for
 * them, are the principal (a Hangar access key is both the user and its id).
 *
 * @param principal the access key id that signed the request, or null for an anonymous request
 * @param action the IAM action, e.g. {@code s3:GetObject} (see {@link ActionAndResource})
 * @param resource the resource ARN, e.g. {@code arn:aws:s3:::photos/cat.jpg}
 * @param context the condition keys and their values
 */
public record AccessRequest(
        @Nullable String principal, String action, String resource, Map<String, List<String>> context) {

    private static final List<String> PRINCIPAL_KEYS = List.of("aws:username", "aws:userid");

    public AccessRequest {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(resource, "resource");
        TreeMap<String, List<String>> keys = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        context.forEach((key, values) -> {
            if (!values.isEmpty()) {
                keys.put(key, List.copyOf(values));
            }
        });
        context = Collections.unmodifiableMap(keys);
    }

    /** A request without condition keys. */
    public AccessRequest(@Nullable String principal, String action, String resource) {
        this(principal, action, resource, Map.of());
    }

    /** A request for this action and resource, e.g. from {@link ActionAndResource#of}. */
    public AccessRequest(@Nullable String principal, ActionAndResource target, Map<String, List<String>> context) {
        this(principal, target.action(), target.resource(), context);
    }

    /** The values of a condition key, compared without regard to case; empty when the request has none. */
    public List<String> values(String key) {
        List<String> values = context.get(key);
        if (values != null) {
            return values;
        }
        if (principal != null && PRINCIPAL_KEYS.stream().anyMatch(key::equalsIgnoreCase)) {
            return List.of(principal);
        }
        return List.of();
    }

    /** A context in which every key has the one value given (a null value: the key is absent). */
    public static Map<String, List<String>> singleValued(Map<String, @Nullable String> values) {
        Map<String, List<String>> context = new LinkedHashMap<>();
        values.forEach((key, value) -> {
            if (value != null) {
                context.put(key, List.of(value));
            }
        });
        return context;
    }
}
