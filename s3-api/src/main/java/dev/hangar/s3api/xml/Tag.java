package dev.hangar.s3api.xml;

import java.util.Objects;

/**
 * One {@code Tag}: {@code Key} then {@code Value}, in a {@link Tagging} tag set or in a lifecycle
 * rule's filter. Both are kept exactly as sent; a value may be empty.
 */
public record Tag(String key, String value) {
    public Tag {
        Objects.requireNonNull(key, "tag key is required");
        Objects.requireNonNull(value, "tag value is required; pass an empty string for none");
    }
}
