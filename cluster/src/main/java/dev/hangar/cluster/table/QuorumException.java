package dev.hangar.cluster.table;

import java.util.List;

/**
 * Too few replicas answered for an operation to meet its quorum: the result is unknown (a write may
 * have reached fewer replicas, which anti-entropy will spread or a later write will override).
 * Callers map it to a 503-class error: retrying once the cluster heals is the remedy.
 */
public final class QuorumException extends RuntimeException {
    private final int needed;
    private final int answered;

    public QuorumException(String operation, int needed, int answered, List<String> failures) {
        super(operation + " needs " + needed + " replica(s) but only " + answered + " answered"
                + (failures.isEmpty() ? "" : ": " + String.join("; ", failures)));
        this.needed = needed;
        this.answered = answered;
    }

    public int needed() {
        return needed;
    }

    public int answered() {
        return answered;
    }
}
