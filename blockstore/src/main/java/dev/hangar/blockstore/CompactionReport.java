package dev.hangar.blockstore;

/**
 * What one {@link BlockStore#compact} pass did.
 *
 * @param segmentsCompacted segment files emptied of live chunks and removed
 * @param chunksMoved live chunks copied into a new segment on the way
 * @param bytesReclaimed disk space given back: the removed files' sizes less what was copied
 */
public record CompactionReport(int segmentsCompacted, long chunksMoved, long bytesReclaimed) {
    public static final CompactionReport NOTHING = new CompactionReport(0, 0, 0);
}
