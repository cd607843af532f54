package dev.hangar.s3api.web;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.semantics.S3Service;
import java.util.concurrent.Semaphore;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Runs at most a fixed number of requests at once and answers the others {@code 503 SlowDown} at once, as S3
 * does when a client goes faster than it can serve: a burst queues neither threads nor buffers, and clients
 * back off and retry as they do against S3.
 */
final class ConcurrencyLimit implements WebFilter {
    private final Semaphore permits;
    private final S3Service service;

    ConcurrencyLimit(int maxConcurrentRequests, S3Service service) {
        this.permits = new Semaphore(maxConcurrentRequests);
        this.service = service;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!permits.tryAcquire()) {
            return slowDown(exchange);
        }
        return chain.filter(exchange).doFinally(signal -> permits.release());
    }

    private Mono<Void> slowDown(ServerWebExchange exchange) {
        String requestId = Exchanges.requestId();
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(HttpStatus.SERVICE_UNAVAILABLE);
        response.getHeaders().setContentType(MediaType.APPLICATION_XML);
        response.getHeaders().set("x-amz-request-id", requestId);
        response.getHeaders().set("Server", "Hangar");
        response.getHeaders().set("Date", service.httpDate());
        // The request body is not read: the connection closes after the answer rather than be drained.
        response.getHeaders().set("Connection", "close");
        String path = exchange.getRequest().getURI().getRawPath();
        byte[] document = exchange.getRequest().getMethod().name().equals("HEAD")
                ? new byte[0]
                : service.errorDocument(new S3Exception(S3Error.SLOW_DOWN), path, null, null, requestId);
        DataBuffer body = response.bufferFactory().wrap(document);
        return response.writeWith(Mono.just(body));
    }
}
