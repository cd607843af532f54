package dev.hangar.cluster.table;

/** A replica's local storage failed; the replica answers with an error rather than a wrong result. */
public final class TableStorageException extends RuntimeException {
    public TableStorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
