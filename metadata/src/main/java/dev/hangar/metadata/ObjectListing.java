package dev.hangar.metadata;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of a listing of current object versions.
 *
 * @param entries objects in key order, interleaved in S3 order with {@code commonPrefixes}
 * @param nextMarker the last key or common prefix this page returned when truncated, to resume
 *     after (exclusive)
 */
public record ObjectListing(
        List<ObjectVersion> entries, List<String> commonPrefixes, boolean truncated, @Nullable String nextMarker) {
    public ObjectListing {
        entries = List.copyOf(entries);
        commonPrefixes = List.copyOf(commonPrefixes);
    }
}
