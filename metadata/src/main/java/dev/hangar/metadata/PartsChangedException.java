package dev.hangar.metadata;

/**
 * Thrown when a multipart upload's completion names blocks that are no longer any part's: a part was uploaded
 * again between reading the parts and completing, and its old blocks were released. Nothing changes; the
 * S3 layer answers InvalidPart, as for a part whose entity tag no longer matches.
 */
public final class PartsChangedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PartsChangedException(String message) {
        super(message);
    }
}
