package dev.hangar.metadata;

/**
 * The storage under the metadata failed: an I/O error, a corrupt or unreadable record, a store
 * that could not be opened. Not the client's fault: the S3 layer answers it with InternalError.
 */
public final class MetadataStorageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MetadataStorageException(String message) {
        super(message);
    }

    public MetadataStorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
