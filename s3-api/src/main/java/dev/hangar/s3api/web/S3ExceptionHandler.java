package dev.hangar.s3api.web;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.semantics.S3Service;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

/**
 * The last resort of an S3 request: an exception that escaped the S3 handler's own error rendering (one
 * thrown while the response was being committed, say) is answered with S3's XML {@code InternalError}, not
 * with Spring Boot's JSON error body, which no S3 client can read. It runs before Spring Boot's handler and
 * takes only the requests the S3 handler took ({@link #S3_REQUEST_ATTRIBUTE}), so the management port's
 * errors stay Spring Boot's.
 */
final class S3ExceptionHandler implements WebExceptionHandler, Ordered {
    /** Set on every exchange the S3 handler takes. */
    static final String S3_REQUEST_ATTRIBUTE = "hangar.s3.request";
    private static final Logger LOG = LoggerFactory.getLogger(S3ExceptionHandler.class);

    private final S3Service service;

    S3ExceptionHandler(S3Service service) {
        this.service = service;
    }

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable failure) {
        ServerHttpResponse response = exchange.getResponse();
        if (exchange.getAttribute(S3_REQUEST_ATTRIBUTE) == null || response.isCommitted()) {
            return Mono.error(failure);
        }
        String path = exchange.getRequest().getPath().value();
        LOG.error("request {} {} failed after its handler", exchange.getRequest().getMethod(), path, failure);
        String requestId = Exchanges.requestId();
        response.setStatusCode(HttpStatus.INTERNAL_SERVER_ERROR);
        response.getHeaders().clear();
        response.getHeaders().set("x-amz-request-id", requestId);
        response.getHeaders().set("x-amz-id-2", requestId);
        response.getHeaders().set("Server", "Hangar");
        response.getHeaders().set("Date", service.httpDate());
        if (HttpMethod.HEAD.equals(exchange.getRequest().getMethod())) {
            return response.setComplete();
        }
        byte[] body = service.errorDocument(new S3Exception(S3Error.INTERNAL_ERROR), path, null, null, requestId);
        response.getHeaders().setContentType(new MediaType("application", "xml", StandardCharsets.UTF_8));
        response.getHeaders().setContentLength(body.length);
        return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
    }

    /** Before Spring Boot's error handler, whose order is -1. */
    @Override
    public int getOrder() {
        return -2;
    }
}
