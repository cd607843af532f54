package dev.hangar.s3api.lifecycle;

import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The objects a lifecycle rule applies to: every predicate given must hold. The {@code Filter} element's forms
 * (empty, {@code Prefix}, {@code Tag}, {@code ObjectSizeGreaterThan}, {@code ObjectSizeLessThan}, {@code And})
 * and a rule's deprecated top-level {@code Prefix} all map onto this one shape.
 *
 * @param prefix keys must start with it; empty for every key
 * @param tags each must be on the object with the same value (the object may have others)
 * @param sizeGreaterThan when given, the object's size in bytes must be strictly greater
 * @param sizeLessThan when given, the object's size in bytes must be strictly less
 */
public record RuleFilter(String prefix, Map<String, String> tags, @Nullable Long sizeGreaterThan,
        @Nullable Long sizeLessThan) {

    /** The filter that applies to every object. */
    public static final RuleFilter ALL = new RuleFilter("", Map.of(), null, null);

    public RuleFilter {
        Objects.requireNonNull(prefix, "prefix");
        tags = Map.copyOf(tags);
    }

    /** A filter on the key prefix only. */
    public static RuleFilter prefix(String prefix) {
        return new RuleFilter(prefix, Map.of(), null, null);
    }

    /** Whether the filter names tags, which neither a delete marker nor a multipart upload carries. */
    public boolean hasTags() {
        return !tags.isEmpty();
    }

    /** Whether the filter names an object size bound. */
    public boolean hasSizeBounds() {
        return sizeGreaterThan != null || sizeLessThan != null;
    }

    /** Whether an object with this key, these tags and this size in bytes is one the rule applies to. */
    public boolean matches(String key, Map<String, String> objectTags, long size) {
        if (!key.startsWith(prefix)) {
            return false;
        }
        for (Map.Entry<String, String> tag : tags.entrySet()) {
            if (!tag.getValue().equals(objectTags.get(tag.getKey()))) {
                return false;
            }
        }
        return (sizeGreaterThan == null || size > sizeGreaterThan) && (sizeLessThan == null || size < sizeLessThan);
    }
}
