package dev.hangar.metadata;

import org.jspecify.annotations.Nullable;

/**
 * What to list: keys starting with {@code prefix}, strictly after {@code after}, rolled up into
 * common prefixes at the first {@code delimiter} after the prefix, at most {@code maxKeys} entries
 * and common prefixes together.
 */
public record ListQuery(String prefix, @Nullable String delimiter, @Nullable String after, int maxKeys) {
    public ListQuery {
        if (prefix == null) {
            prefix = "";
        }
        if (delimiter != null && delimiter.isEmpty()) {
            delimiter = null;
        }
        if (maxKeys < 0) {
            throw new IllegalArgumentException("maxKeys must not be negative");
        }
    }
}
