package dev.hangar.blockstore;

import java.io.IOException;

/**
 * A block's bytes do not match the size or CRC32C recorded when it was written: the disk (or the
 * remote service) returned something other than what was stored. A reader gets it instead of the
 * end of the stream, so a corrupt block is never passed on as if whole.
 */
public final class CorruptBlockException extends IOException {
    private final BlockId id;

    public CorruptBlockException(BlockId id, String detail) {
        super("block " + id + " is corrupt: " + detail);
        this.id = id;
    }

    public BlockId id() {
        return id;
    }
}
