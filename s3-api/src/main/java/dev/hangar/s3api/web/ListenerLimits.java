package dev.hangar.s3api.web;

import java.time.Duration;
import java.util.Objects;
import reactor.netty.http.server.HttpServer;

/**
 * What one connection and one listener may hold: how long a connection may wait for a request, send a
 * request's headers, pause inside its body or leave a response unread, how many connections a listener keeps,
 * and how many requests it runs at once. A listener without these is open to slowloris clients, idle
 * connections that use up its file descriptors and clients that request large objects and never read them.
 *
 * @param idleTimeout a connection that waits this long for a request (before its first byte) is closed
 * @param headerTimeout a request whose headers are not complete this long after its first byte is closed
 * @param readTimeout a request body that sends nothing for this long is abandoned and its connection closed
 * @param writeTimeout a response the client takes nothing of for this long is abandoned and its connection
 *     closed
 * @param maxConnections a connection beyond this many gets {@code 503 SlowDown} for its first request and is
 *     closed; beyond a quarter more (at least 16 more) new connections are closed as they are accepted
 * @param maxConcurrentRequests requests beyond this many running at once are answered {@code 503 SlowDown}
 */
public record ListenerLimits(Duration idleTimeout, Duration headerTimeout, Duration readTimeout,
        Duration writeTimeout, int maxConnections, int maxConcurrentRequests) {

    public ListenerLimits {
        requirePositive(idleTimeout, "idle timeout");
        requirePositive(headerTimeout, "header timeout");
        requirePositive(readTimeout, "read timeout");
        requirePositive(writeTimeout, "write timeout");
        if (maxConnections < 1) {
            throw new IllegalArgumentException("max connections must be at least 1: " + maxConnections);
        }
        if (maxConcurrentRequests < 1) {
            throw new IllegalArgumentException("max concurrent requests must be at least 1: " + maxConcurrentRequests);
        }
    }

    /** The defaults: 60 s idle, 30 s for the headers, 60 s of silence in a body or a response. */
    public static ListenerLimits defaults() {
        return new ListenerLimits(Duration.ofSeconds(60), Duration.ofSeconds(30), Duration.ofSeconds(60),
                Duration.ofSeconds(60), 4096, 1024);
    }

    /**
     * The server with these limits on its connections: idle, header and read timeouts, the connection limit
     * ({@link ConnectionLimit}),
     * and the send window that bounds what an unread response holds. The concurrency limit is a
     * {@linkplain S3Api#concurrencyFilter() filter} of the handler's.
     */
    public HttpServer applyTo(HttpServer server) {
        // ReadAfterResponse too: a keep-alive connection that Reactor Netty stops reading (see there) would
        // hold its client's next request until the client's own timeout, whatever the limits say.
        return ReadAfterResponse.install(SendWindow.install(RequestHeadDeadline.install(ConnectionLimit.install(server
                .idleTimeout(idleTimeout)
                .readTimeout(readTimeout), maxConnections), headerTimeout)));
    }

    private static void requirePositive(Duration duration, String what) {
        Objects.requireNonNull(duration, what);
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(what + " must be positive: " + duration);
        }
    }
}
