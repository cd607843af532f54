package dev.hangar.s3api.web;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Times every S3 request from its arrival to the last byte of its response, tagged with the S3
 * operation and the HTTP status (low cardinality: never a bucket or a key).
 */
final class S3MetricsFilter implements WebFilter {
    static final String TIMER = "hangar.s3.requests";

    private final MeterRegistry registry;

    S3MetricsFilter(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        Timer.Sample sample = Timer.start(registry);
        return chain.filter(exchange).doFinally(signal -> {
            Object operation = exchange.getAttribute(S3HandlerFunction.OPERATION_ATTRIBUTE);
            HttpStatusCode status = exchange.getResponse().getStatusCode();
            sample.stop(Timer.builder(TIMER)
                    .description("S3 requests, from arrival to the end of the response")
                    .tag("operation", operation == null ? "Unknown" : operation.toString())
                    .tag("status", status == null ? "200" : Integer.toString(status.value()))
                    .register(registry));
        });
    }
}
