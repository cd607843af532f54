package dev.hangar.cluster.replication;

import dev.hangar.blockstore.BlockStoreUnavailableException;

/**
 * A write that fewer than the write quorum of replicas acknowledged: the block must be treated as
 * not written. A {@link BlockStoreUnavailableException}, so that the S3 layer answers 503 without
 * knowing how blocks are replicated.
 */
public final class QuorumNotReachedException extends BlockStoreUnavailableException {
    private final int acknowledged;
    private final int needed;

    public QuorumNotReachedException(String message, int acknowledged, int needed) {
        super(message);
        this.acknowledged = acknowledged;
        this.needed = needed;
    }

    public int acknowledged() {
        return acknowledged;
    }

    public int needed() {
        return needed;
    }
}
