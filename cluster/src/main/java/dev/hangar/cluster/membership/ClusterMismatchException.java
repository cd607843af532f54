package dev.hangar.cluster.membership;

/** A peer belongs to another cluster than this node (their cluster ids differ). */
public final class ClusterMismatchException extends IllegalStateException {
    public ClusterMismatchException(String message) {
        super(message);
    }
}
