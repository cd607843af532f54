package dev.hangar.blockstore;

import java.io.IOException;

/** A block that should be stored is not. */
public final class NoSuchBlockException extends IOException {
    private static final long serialVersionUID = 1L;

    public NoSuchBlockException(BlockId id) {
        super("no such block: " + id);
    }
}
