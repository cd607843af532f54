package dev.hangar.cluster.replication;

import java.io.IOException;

/**
 * A write that fewer than the write quorum of replicas acknowledged: the block must be treated as
 * not written. An IOException so that the S3 layer answers it like any storage failure (a 503-class
 * error), rather than as a bug.
 */
public final class QuorumNotReachedException extends IOException {
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
