package dev.hangar.metadata;

/** Thrown when a metadata operation finds the bucket not empty: the S3 layer maps it to its error code. */
public final class BucketNotEmptyException extends Exception {
    private static final long serialVersionUID = 1L;

    public BucketNotEmptyException(String message) {
        super(message);
    }
}
