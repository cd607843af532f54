package dev.hangar.bench.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * Waits for a server process that is starting to answer its first signed request (ListBuckets): plain TCP
 * connects poll the port until it accepts, then signed requests, each with a short time limit, until one is
 * answered. The SDK's client is not the port's poller: while nothing listens, its connection attempts
 * sometimes hang until their time limit, which would add seconds to a start and to a measured figure.
 */
public final class FirstAnswer {

    /** Time limit of one signed attempt. */
    static final Duration ATTEMPT_LIMIT = Duration.ofSeconds(2);

    private FirstAnswer() {
    }

    /**
     * Returns once {@code client} has an answer from {@code address}; fails once {@code server} exits or at
     * {@code deadlineNanos} ({@link System#nanoTime}), naming {@code output} (where the server's output went).
     */
    public static void await(S3AsyncClient client, Process server, InetSocketAddress address, long deadlineNanos, String output)
            throws InterruptedException {
        boolean listening = false;
        while (true) {
            if (!server.isAlive()) {
                throw new IllegalStateException("the server exited with " + server.exitValue() + " before answering; " + output);
            }
            if (System.nanoTime() > deadlineNanos) {
                throw new IllegalStateException("the server did not answer in time; " + output);
            }
            if (!listening) {
                try (Socket socket = new Socket()) {
                    socket.connect(address, 1_000);
                    listening = true;
                } catch (IOException notYet) {
                    Thread.sleep(10);
                    continue;
                }
            }
            try {
                client.listBuckets(request -> request.overrideConfiguration(configuration -> configuration.apiCallTimeout(ATTEMPT_LIMIT)))
                    .join();
                return;
            } catch (CompletionException notYet) {
                Thread.sleep(10);
            }
        }
    }
}
