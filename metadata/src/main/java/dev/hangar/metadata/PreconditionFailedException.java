package dev.hangar.metadata;

/**
 * Thrown when a conditional write finds its {@link Precondition} unmet; nothing was written. The S3
 * layer maps it to its error code (412 PreconditionFailed).
 */
public final class PreconditionFailedException extends Exception {
    private static final long serialVersionUID = 1L;

    public PreconditionFailedException(String message) {
        super(message);
    }
}
