package dev.hangar.s3api.xml;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A lifecycle rule's {@code Filter}: empty (every object), or exactly one of {@code Prefix}, {@code
 * Tag}, {@code ObjectSizeGreaterThan}, {@code ObjectSizeLessThan} or {@code And}. S3 refuses two
 * predicates directly in a filter; they go in an {@code And}.
 *
 * @param prefix the key prefix; an empty one is kept, distinct from none, as the client sent it
 * @param objectSizeGreaterThan sizes strictly above this match
 * @param objectSizeLessThan sizes strictly below this match
 */
public record LifecycleFilter(
        @Nullable String prefix,
        @Nullable Tag tag,
        @Nullable Long objectSizeGreaterThan,
        @Nullable Long objectSizeLessThan,
        @Nullable And and) {

    private static final LifecycleFilter EMPTY = new LifecycleFilter(null, null, null, null, null);

    public LifecycleFilter {
        int predicates = (prefix == null ? 0 : 1) + (tag == null ? 0 : 1) + (objectSizeGreaterThan == null ? 0 : 1)
                + (objectSizeLessThan == null ? 0 : 1) + (and == null ? 0 : 1);
        if (predicates > 1) {
            throw new IllegalArgumentException("a filter holds at most one predicate; combine them with And");
        }
    }

    /** The empty filter, {@code <Filter/>}: the rule applies to every object. */
    public static LifecycleFilter empty() {
        return EMPTY;
    }

    public static LifecycleFilter prefix(String prefix) {
        return new LifecycleFilter(prefix, null, null, null, null);
    }

    public static LifecycleFilter tag(Tag tag) {
        return new LifecycleFilter(null, tag, null, null, null);
    }

    public static LifecycleFilter and(And and) {
        return new LifecycleFilter(null, null, null, null, and);
    }

    /** Whether the filter matches on tags, which rules that abort uploads or expire markers may not. */
    public boolean usesTags() {
        return tag != null || (and != null && !and.tags().isEmpty());
    }

    /** Whether the filter matches on object size, which those rules may not either. */
    public boolean usesObjectSize() {
        return objectSizeGreaterThan != null || objectSizeLessThan != null
                || (and != null && (and.objectSizeGreaterThan() != null || and.objectSizeLessThan() != null));
    }

    /**
     * A filter's {@code And}: {@code Prefix}?, every {@code Tag}, {@code ObjectSizeGreaterThan}?,
     * {@code ObjectSizeLessThan}?, at least two predicates in all (S3 refuses an {@code And} of
     * one; an empty prefix counts).
     */
    public record And(
            @Nullable String prefix,
            List<Tag> tags,
            @Nullable Long objectSizeGreaterThan,
            @Nullable Long objectSizeLessThan) {

        public And {
            tags = List.copyOf(tags);
            int predicates = (prefix == null ? 0 : 1) + tags.size() + (objectSizeGreaterThan == null ? 0 : 1)
                    + (objectSizeLessThan == null ? 0 : 1);
            if (predicates < 2) {
                throw new IllegalArgumentException("an And combines at least two predicates");
            }
        }
    }
}
