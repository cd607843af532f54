package dev.hangar.cluster;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The writes on this node whose blocks may not be referenced by the metadata yet: each one from before its
 * first block is written until after its metadata is committed (or its blocks are queued for freeing). The
 * scrub asks for the oldest, and never removes a block written after that one began: such a block may be
 * an upload's, whose commit the scrub's snapshot of the metadata could not see.
 *
 * <p>Start times come from the system clock, the one block stores stamp their blocks with, not from an
 * injected clock: they are compared with those stamps.
 */
public final class WritesInFlight {
    private final Set<Write> open = ConcurrentHashMap.newKeySet();

    /** One write; closing it (once its metadata is committed, or has failed) ends it. */
    public final class Write implements AutoCloseable {
        private final Instant started = Instant.now();

        private Write() {}

        @Override
        public void close() {
            open.remove(this);
        }
    }

    /** Begins a write, before any of its blocks is written. */
    public Write begin() {
        Write write = new Write();
        open.add(write);
        return write;
    }

    /** When the oldest write still in flight began; empty if none is. */
    Optional<Instant> oldestStart() {
        Instant oldest = null;
        for (Write write : open) {
            if (oldest == null || write.started.isBefore(oldest)) {
                oldest = write.started;
            }
        }
        return Optional.ofNullable(oldest);
    }
}
