package dev.hangar.s3api.encryption;

/**
 * The segments of one sealed stream that a plaintext range touches, and where they are stored.
 *
 * @param plainLength the stream's whole plaintext length
 * @param firstIndex the first segment touched
 * @param endIndex one past the last segment touched
 * @param skip plaintext bytes of the first segment before the range starts
 */
public record SegmentRun(long plainLength, long firstIndex, long endIndex, long skip) {

    /**
     * The run of {@code length} (at least 1) plaintext bytes from {@code offset} of a stream of {@code plainLength}.
     */
    public static SegmentRun of(long plainLength, long offset, long length) {
        if (offset < 0 || length < 1 || offset + length > plainLength) {
            throw new IllegalArgumentException(
                    "range " + offset + "+" + length + " is not within a stream of " + plainLength + " bytes");
        }
        long first = offset / SealedFormat.SEGMENT;
        long end = (offset + length + SealedFormat.SEGMENT - 1) / SealedFormat.SEGMENT;
        return new SegmentRun(plainLength, first, end, offset - first * SealedFormat.SEGMENT);
    }

    /** Where the run starts within the stored stream. */
    public long storedOffset() {
        return SealedFormat.segmentOffset(firstIndex);
    }

    /** How many stored bytes the run spans (its last segment may be the stream's short last one). */
    public long storedLength() {
        long end = Math.min(SealedFormat.segmentOffset(endIndex), SealedFormat.storedLength(plainLength));
        return end - storedOffset();
    }
}
