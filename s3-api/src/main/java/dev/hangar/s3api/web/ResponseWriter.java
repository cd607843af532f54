package dev.hangar.s3api.web;

import dev.hangar.cluster.RoundTrips;
import dev.hangar.s3api.semantics.S3Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Writes an {@link S3Response} to the exchange: its status, the request id, server and date headers, its
 * own headers and its body. A streamed body is written through an output stream on the blocking
 * executor, with back-pressure: it waits while the connection cannot take more ({@link SendWindow}).
 *
 * <p>Everything is written straight to the exchange. The headers stay out of the {@code
 * ServerResponse} so that WebFlux's own conditional-request check (which, unlike S3, lets
 * If-Unmodified-Since fail a request whose If-Match holds) never sees an ETag or a Last-Modified:
 * S3's precedence is decided by {@code Conditions}.
 */
final class ResponseWriter {
    private static final int RESPONSE_BUFFER = 64 * 1024;

    private final ExecutorService blocking;
    private final Logger log;
    private final String bodyDescription;
    private final Duration writeTimeout;
    private final Supplier<String> httpDate;

    /**
     * @param log where a failed response body is reported
     * @param bodyDescription how that report names the body, before the request id
     * @param writeTimeout how long a streamed body waits for a client that takes nothing before it is
     *     abandoned (see {@link SendWindow})
     * @param httpDate the current time as the Date header gives it
     */
    ResponseWriter(ExecutorService blocking, Logger log, String bodyDescription, Duration writeTimeout,
            Supplier<String> httpDate) {
        this.blocking = blocking;
        this.log = log;
        this.bodyDescription = bodyDescription;
        this.writeTimeout = writeTimeout;
        this.httpDate = httpDate;
    }

    Mono<ServerResponse> render(S3Response response, String requestId) {
        return ServerResponse.status(HttpStatusCode.valueOf(response.status())).build((exchange, context) -> {
            ServerHttpResponse http = exchange.getResponse();
            HttpHeaders headers = http.getHeaders();
            headers.set("x-amz-request-id", requestId);
            headers.set("x-amz-id-2", requestId);
            headers.set("Server", "Hangar");
            headers.set("Date", httpDate.get());
            response.headers().forEach(headers::set);
            return switch (response.body()) {
                case S3Response.Body.Empty empty -> http.setComplete();
                case S3Response.Body.Bytes bytes -> {
                    headers.set("Content-Type", bytes.contentType());
                    headers.setContentLength(bytes.data().length);
                    yield http.writeWith(Mono.fromSupplier(() -> http.bufferFactory().wrap(bytes.data())));
                }
                case S3Response.Body.Stream stream -> {
                    headers.setContentLength(stream.length());
                    // Either the writer runs or, if the exchange ends before it starts, the body is
                    // abandoned: never both, never neither, so what the body holds is always released.
                    AtomicBoolean started = new AtomicBoolean();
                    yield http.writeWith(StreamedBody.publish(
                            out -> {
                                if (!started.compareAndSet(false, true)) {
                                    return;
                                }
                                // The body reads its blocks on this thread: they count as the request's rounds.
                                try (RoundTrips.Binding counting = RoundTrips.bind(S3MetricsFilter.tally(exchange))) {
                                    stream.writer().writeTo(SendWindow.gate(http, out, writeTimeout));
                                } catch (IOException | UncheckedIOException e) {
                                    log.warn("{} {} failed: {}", bodyDescription, requestId, e.toString());
                                    throw e;
                                }
                            },
                            http.bufferFactory(), blocking, RESPONSE_BUFFER, writeTimeout)
                            .doFinally(signal -> {
                                if (started.compareAndSet(false, true)) {
                                    stream.writer().abandon();
                                }
                            }));
                }
            };
        });
    }
}
