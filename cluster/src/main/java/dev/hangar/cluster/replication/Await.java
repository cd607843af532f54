package dev.hangar.cluster.replication;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Blocks a caller thread (never an I/O thread) on a call, turning its failure into an IOException. */
final class Await {
    // Every RPC carries its own timeout; this margin only guards against a future nobody completes.
    private static final Duration MARGIN = Duration.ofSeconds(1);

    private Await() {}

    static <T> T await(CompletableFuture<T> future, Duration timeout) throws IOException {
        try {
            return future.get(timeout.plus(MARGIN).toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException(cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new IOException("no answer within " + timeout.toMillis() + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted = new InterruptedIOException("interrupted while waiting for replicas");
            interrupted.initCause(e);
            throw interrupted;
        }
    }

    /** A short description of why a call failed, for error messages. */
    static String reason(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }
}
