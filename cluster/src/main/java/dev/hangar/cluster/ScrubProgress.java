package dev.hangar.cluster;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What the running scrub has done so far, or, when none is running, what the latest one did.
 *
 * @param running whether a scrub is running now
 * @param started when the running or latest scrub began; null if none ever ran
 * @param lastCompleted when the latest scrub that ran to its end finished; null if none did
 * @param completedScrubs scrubs that ran to their end since the node started
 * @param blocksChecked block references read back whole and compared with their size and CRC32C
 * @param bytesChecked the bytes of those blocks
 * @param corruptBlocks referenced blocks whose bytes do not match
 * @param missingBlocks referenced blocks that are not stored (confirmed once more at the end of
 *     the scrub, so that an object deleted meanwhile does not count)
 * @param failedChecks blocks that could not be read for another reason (an I/O error)
 * @param orphansRemoved stored blocks that nothing referenced, removed
 * @param error why the latest scrub stopped before its end; null if it did not
 */
public record ScrubProgress(
        boolean running,
        @Nullable Instant started,
        @Nullable Instant lastCompleted,
        long completedScrubs,
        long blocksChecked,
        long bytesChecked,
        long corruptBlocks,
        long missingBlocks,
        long failedChecks,
        long orphansRemoved,
        @Nullable String error) {

    /** Before the first scrub. */
    public static final ScrubProgress NONE = new ScrubProgress(false, null, null, 0, 0, 0, 0, 0, 0, 0, null);
}
