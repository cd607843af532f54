package dev.hangar.blockstore.packed;

/**
 * How {@link PackedBlockStore} packs chunks.
 *
 * @param packThreshold chunks of at most this many bytes go into segment files; bigger ones get a
 *     file each. 0 packs nothing.
 * @param segmentSize a segment is sealed and a new one started once the next record would take it
 *     past this size
 * @param compactionThreshold share of a sealed segment's bytes that must be dead (deleted chunks)
 *     before {@code compact} copies its live chunks out and removes it, in (0, 1]
 */
public record PackingOptions(int packThreshold, long segmentSize, double compactionThreshold) {
    /** Chunks under 1 MiB are packed into 256 MiB segments; half-dead segments are compacted. */
    public static final PackingOptions DEFAULTS = new PackingOptions((1 << 20) - 1, 256L << 20, 0.5);

    public PackingOptions {
        if (packThreshold < 0) {
            throw new IllegalArgumentException("pack threshold must not be negative: " + packThreshold);
        }
        if (segmentSize < 1024 || segmentSize < packThreshold) {
            throw new IllegalArgumentException(
                    "segment size must be at least 1 KiB and the pack threshold: " + segmentSize);
        }
        if (!(compactionThreshold > 0 && compactionThreshold <= 1)) {
            throw new IllegalArgumentException("compaction threshold must be in (0, 1]: " + compactionThreshold);
        }
    }
}
