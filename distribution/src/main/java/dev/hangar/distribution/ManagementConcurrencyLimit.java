package dev.hangar.distribution;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Semaphore;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs at most a fixed number of management requests at once and answers the others {@code 503} at once: the
 * Actuator endpoints run blocking work (a scrub, a lifecycle pass, key listings) on a shared bounded pool whose
 * queue is long, so a burst would otherwise wait there holding connections and buffers. The management port
 * speaks JSON, not S3, so the refusal is {@code {"error": ...}} like {@link AdministrationFilter}'s, with
 * {@code Retry-After}.
 */
final class ManagementConcurrencyLimit implements WebFilter, Ordered {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final byte[] REFUSAL = JSON.writeValueAsString(Map.of("error",
            "too many management requests at once (hangar.http.management-max-concurrent-requests): retry later"))
            .getBytes(StandardCharsets.UTF_8);

    private final Semaphore permits;

    ManagementConcurrencyLimit(int maxConcurrentRequests) {
        if (maxConcurrentRequests < 1) {
            throw new IllegalArgumentException(
                    "management max concurrent requests must be at least 1: " + maxConcurrentRequests);
        }
        this.permits = new Semaphore(maxConcurrentRequests);
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!permits.tryAcquire()) {
            return refuse(exchange);
        }
        return chain.filter(exchange).doFinally(signal -> permits.release());
    }

    /**
     * Before {@link AdministrationFilter}: a refusal there reads and drops up to a megabyte of body, and
     * unauthenticated requests must not escape the bound either.
     */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    private static Mono<Void> refuse(ServerWebExchange exchange) {
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(HttpStatus.SERVICE_UNAVAILABLE);
        response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
        response.getHeaders().set(HttpHeaders.RETRY_AFTER, "1");
        // The request body is not read: the connection closes after the answer rather than be drained.
        response.getHeaders().set(HttpHeaders.CONNECTION, "close");
        return response.writeWith(Mono.just(response.bufferFactory().wrap(REFUSAL)));
    }
}
