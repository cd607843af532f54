package dev.hangar.cluster.table;

/**
 * A timestamp from another node lies further ahead of this node's clock than the configured skew
 * allows: it was refused, neither stored nor folded into the clock. Adopting it would pull every
 * later timestamp of this node that far into the future (and one near the largest long would make
 * every later local write fail), so the sender, whose clock or data is wrong, gets this error instead.
 */
public final class FutureTimestampException extends IllegalArgumentException {
    public FutureTimestampException(String message) {
        super(message);
    }
}
