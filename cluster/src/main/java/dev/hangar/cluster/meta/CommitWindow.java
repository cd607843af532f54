package dev.hangar.cluster.meta;

import dev.hangar.metadata.MetadataUnavailableException;
import dev.hangar.metadata.command.MetadataCommand;
import java.time.Duration;

/**
 * How long a command may take from its first quorum read to the start of its write: half the garbage grace.
 *
 * <p>A command that references blocks it read (completing an upload references its parts' blocks) races any
 * node that frees them: a part uploaded again through another node queues the old part's blocks there, and that
 * node frees them once the grace has passed and a quorum read of the key no longer shows them referenced. A
 * completion whose write starts within half the grace of its read, and so lands (its write times out well
 * within the other half), is seen by that check; one that stalled longer (a long pause, a partition healing) is
 * not written: it fails as unavailable, and the client's retry reads the parts again. With no grace (tests that
 * want garbage back at once) there is no window and nothing is refused.
 */
record CommitWindow(Duration window) {
    static CommitWindow within(Duration garbageGrace) {
        return new CommitWindow(garbageGrace.dividedBy(2));
    }

    /** Refuses to go on with {@code command} if more than the window has passed since {@code readFromNanos}. */
    void require(long readFromNanos, MetadataCommand<?> command) {
        if (window.isZero()) {
            return;
        }
        Duration took = Duration.ofNanos(System.nanoTime() - readFromNanos);
        if (took.compareTo(window) > 0) {
            throw new MetadataUnavailableException(command.getClass().getSimpleName() + " read the metadata "
                    + took.toMillis() + " ms before its write, more than half the garbage grace (" + window.toMillis()
                    + " ms): blocks it read may have been freed meanwhile, so it was not written; retry it");
        }
    }
}
