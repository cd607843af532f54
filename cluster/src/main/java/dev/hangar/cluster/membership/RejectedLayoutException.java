package dev.hangar.cluster.membership;

/** A layout from another node breaks a rule every layout must meet; it was not adopted. */
public final class RejectedLayoutException extends IllegalArgumentException {
    public RejectedLayoutException(String message) {
        super(message);
    }
}
