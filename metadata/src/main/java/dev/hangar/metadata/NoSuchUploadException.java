package dev.hangar.metadata;

/** Thrown when a metadata operation finds no such multipart upload: the S3 layer maps it to its error code. */
public final class NoSuchUploadException extends Exception {
    private static final long serialVersionUID = 1L;

    public NoSuchUploadException(String message) {
        super(message);
    }
}
