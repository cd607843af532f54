package dev.hangar.s3api;

import dev.hangar.blockstore.BlockStoreUnavailableException;
import dev.hangar.metadata.MetadataUnavailableException;
import org.jspecify.annotations.Nullable;

/**
 * Recognises the failures that mean "too few replicas answered" — a node cut off from the majority
 * of its cluster, or a cluster with too many nodes down — which S3 clients should see as 503
 * ServiceUnavailable (and retry) rather than as an internal error.
 */
public final class Unavailable {
    private Unavailable() {}

    /** The 503 answer for {@code failure}, if it or one of its causes is a missed quorum; else null. */
    public static @Nullable S3Exception of(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            // Neutral types: each replication policy maps its own failures onto them.
            if (cause instanceof MetadataUnavailableException || cause instanceof BlockStoreUnavailableException) {
                return new S3Exception(S3Error.SERVICE_UNAVAILABLE,
                        "Too few replicas answered; the cluster may be partitioned or nodes down: "
                                + cause.getMessage());
            }
        }
        return null;
    }
}
