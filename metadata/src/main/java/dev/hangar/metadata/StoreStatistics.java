package dev.hangar.metadata;

/**
 * Store-wide totals, kept exact by every mutation rather than counted on demand, so reading them
 * costs a few lookups however large the store is.
 *
 * @param objects stored object versions that are not delete markers, current and noncurrent
 * @param bytes the sum of the sizes of those versions: logical object sizes, as clients see them,
 *     whether the bytes are inline or in blocks
 * @param deleteMarkers stored delete markers, current and noncurrent
 * @param buckets existing buckets
 * @param uploads multipart uploads in progress (created, neither completed nor aborted)
 */
public record StoreStatistics(long objects, long bytes, long deleteMarkers, long buckets, long uploads) {
    public static final StoreStatistics EMPTY = new StoreStatistics(0, 0, 0, 0, 0);
}
