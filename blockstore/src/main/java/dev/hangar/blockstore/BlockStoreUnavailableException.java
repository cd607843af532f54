package dev.hangar.blockstore;

import java.io.IOException;

/**
 * Too few of the places a block store keeps copies in answered: a replicated store cut off from
 * the nodes that hold a block. Retrying once they are back is the remedy, so the S3 layer answers
 * 503 rather than an internal error. Whether the write happened is not known.
 */
public class BlockStoreUnavailableException extends IOException {
    private static final long serialVersionUID = 1L;

    public BlockStoreUnavailableException(String message) {
        super(message);
    }
}
