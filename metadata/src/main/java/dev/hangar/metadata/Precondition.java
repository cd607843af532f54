package dev.hangar.metadata;

import org.jspecify.annotations.Nullable;

/**
 * A condition on the current version of a key that a write checks atomically, under the same lock
 * as the write itself (S3's conditional writes: {@code If-None-Match: *}, {@code If-Match}).
 */
public sealed interface Precondition {

    /** Always met. */
    record None() implements Precondition {}

    /** Met when the key has no current version, or its current version is a delete marker. */
    record IfAbsent() implements Precondition {}

    /**
     * Met when the current version is not a delete marker and has this ETag; quotes around either
     * ETag are ignored, so {@code abc} matches {@code "abc"}.
     */
    record IfEtagMatches(String etag) implements Precondition {
        public IfEtagMatches {
            if (etag == null) {
                throw new IllegalArgumentException("etag is required");
            }
        }
    }

    /** Whether a key whose current version is {@code current} (null: no version) meets this. */
    default boolean isMetBy(@Nullable ObjectVersion current) {
        return switch (this) {
            case None none -> true;
            case IfAbsent absent -> current == null || current.isDeleteMarker();
            case IfEtagMatches matches -> current != null
                    && !current.isDeleteMarker()
                    && unquoted(current.etag()).equals(unquoted(matches.etag()));
        };
    }

    private static String unquoted(String etag) {
        return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"")
                ? etag.substring(1, etag.length() - 1)
                : etag;
    }
}
