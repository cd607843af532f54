package dev.hangar.metadata;

/** Thrown when a metadata operation finds no such bucket: the S3 layer maps it to its error code. */
public final class NoSuchBucketException extends Exception {
    private static final long serialVersionUID = 1L;

    public NoSuchBucketException(String message) {
        super(message);
    }
}
