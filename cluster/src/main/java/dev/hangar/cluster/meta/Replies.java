package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.QuorumException;
import dev.hangar.metadata.MetadataStorageException;
import dev.hangar.metadata.MetadataUnavailableException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Waits for table operations and turns their failures into the metadata store's: a missed quorum
 * is {@link MetadataUnavailableException} (503, retry later), anything else a {@link
 * MetadataStorageException}. Callers are virtual threads, so blocking here is cheap.
 */
final class Replies {
    private Replies() {}

    static <T> T join(CompletableFuture<T> reply, String what) {
        try {
            return reply.join();
        } catch (CompletionException | CancellationException e) {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof QuorumException quorum) {
                throw new MetadataUnavailableException(
                        "metadata unavailable: cannot " + what + ": " + quorum.getMessage(), quorum);
            }
            throw new MetadataStorageException("cannot " + what + ": " + cause.getMessage(), cause);
        }
    }
}
