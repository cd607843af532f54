package dev.hangar.metadata;

/**
 * Object Lock protects the version a mutation would remove, replace or whose retention it would
 * relax; nothing changed. The S3 layer answers AccessDenied, as S3 does.
 */
public final class ObjectLockedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ObjectLockedException(String message) {
        super(message);
    }
}
