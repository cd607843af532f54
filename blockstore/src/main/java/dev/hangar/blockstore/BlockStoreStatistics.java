package dev.hangar.blockstore;

/**
 * Counters and gauges of a block store since it was opened (counters) or as it is now (gauges),
 * for metrics. A backend that has no such thing reports 0.
 *
 * @param segmentFiles segment files holding packed chunks (gauge)
 * @param segmentBytes bytes of those files on disk (gauge)
 * @param packedChunks packed chunks still referenced (gauge)
 * @param liveSegmentBytes bytes of segment files that live chunks occupy, headers included (gauge)
 * @param fsyncs data-file syncs: segment and block files, not folders (counter)
 * @param groupCommits syncs that acknowledged packed writes (counter)
 * @param groupCommittedWrites packed writes acknowledged by those syncs; divided by {@code
 *     groupCommits}, the mean number of writers that shared one sync (counter)
 * @param largestGroupCommit most writers that shared one sync (gauge, since opened)
 * @param corruptBlocks reads and checks that found a block's bytes not matching its CRC32C (counter)
 * @param compactedSegments segment files removed by compaction (counter)
 * @param compactionReclaimedBytes bytes those removals gave back to the disk (counter)
 */
public record BlockStoreStatistics(
        long segmentFiles,
        long segmentBytes,
        long packedChunks,
        long liveSegmentBytes,
        long fsyncs,
        long groupCommits,
        long groupCommittedWrites,
        long largestGroupCommit,
        long corruptBlocks,
        long compactedSegments,
        long compactionReclaimedBytes) {

    public static final BlockStoreStatistics NONE = new BlockStoreStatistics(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** Share of segment bytes that no live chunk uses: what compaction can give back. */
    public double garbageRatio() {
        return segmentBytes == 0 ? 0 : Math.max(0, segmentBytes - liveSegmentBytes) / (double) segmentBytes;
    }
}
