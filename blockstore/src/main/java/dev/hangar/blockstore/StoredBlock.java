package dev.hangar.blockstore;

import java.time.Instant;

/**
 * A block as its store lists it, for a scrub: which id, how many bytes, and when it was written,
 * which tells a block whose write has not been committed yet from one a crash left unreferenced.
 */
public record StoredBlock(BlockId id, long size, Instant writtenAt) {
    public StoredBlock {
        if (id == null || writtenAt == null) {
            throw new IllegalArgumentException("block id and write time are required");
        }
        if (size < 0) {
            throw new IllegalArgumentException("block size must not be negative: " + size);
        }
    }
}
