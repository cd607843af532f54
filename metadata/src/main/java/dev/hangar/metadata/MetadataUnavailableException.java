package dev.hangar.metadata;

/**
 * Too few replicas of the metadata answered for the operation to be safe, e.g. a node cut off from
 * the majority of its cluster. Nothing was acknowledged; retrying once the cluster heals may succeed.
 * The S3 layer answers it with 503 ServiceUnavailable, never with stale or diverging data.
 */
public final class MetadataUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MetadataUnavailableException(String message) {
        super(message);
    }

    public MetadataUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
