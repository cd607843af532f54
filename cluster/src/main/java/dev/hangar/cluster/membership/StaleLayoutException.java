package dev.hangar.cluster.membership;

/**
 * An apply named a layout version that is no longer the current one: someone else applied in between,
 * and the caller must look at the new layout before changing it.
 */
public final class StaleLayoutException extends IllegalStateException {
    private final long currentVersion;

    public StaleLayoutException(long expectedVersion, long currentVersion) {
        super("layout version " + expectedVersion + " is stale: the current version is " + currentVersion);
        this.currentVersion = currentVersion;
    }

    public long currentVersion() {
        return currentVersion;
    }
}
