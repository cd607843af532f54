package dev.hangar.cluster.rpc;

import dev.hangar.cluster.layout.NodeId;
import java.util.concurrent.CompletableFuture;

/**
 * Serves one method on an {@link RpcServer}. A handler that throws or whose future fails answers
 * the caller with an error carrying the exception's message.
 */
@FunctionalInterface
public interface RpcHandler {
    /** Handles a request from node {@code from}; the future's bytes are the response payload. */
    CompletableFuture<byte[]> handle(NodeId from, byte[] payload) throws Exception;
}
