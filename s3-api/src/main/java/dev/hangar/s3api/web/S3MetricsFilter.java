package dev.hangar.s3api.web;

import dev.hangar.cluster.RoundTrips;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Times every S3 request from its arrival to the last byte of its response, tagged with the S3
 * operation and the HTTP status (low cardinality: never a bucket or a key). On a cluster node it
 * also records how many sequential rounds of inter-node calls each request cost, for its metadata
 * and for its blocks, per operation.
 */
final class S3MetricsFilter implements WebFilter {
    static final String TIMER = "hangar.s3.requests";
    static final String ROUNDS = "hangar.cluster.rounds";
    /** The exchange attribute holding the request's {@link RoundTrips.Tally}. */
    static final String TALLY_ATTRIBUTE = "hangar.cluster.tally";

    private final MeterRegistry registry;
    private final boolean countRounds;

    S3MetricsFilter(MeterRegistry registry, boolean countRounds) {
        this.registry = registry;
        this.countRounds = countRounds;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        Timer.Sample sample = Timer.start(registry);
        RoundTrips.Tally tally = new RoundTrips.Tally();
        exchange.getAttributes().put(TALLY_ATTRIBUTE, tally);
        return chain.filter(exchange).doFinally(signal -> {
            Object operation = exchange.getAttribute(S3HandlerFunction.OPERATION_ATTRIBUTE);
            String name = operation == null ? "Unknown" : operation.toString();
            HttpStatusCode status = exchange.getResponse().getStatusCode();
            sample.stop(Timer.builder(TIMER)
                    .description("S3 requests, from arrival to the end of the response")
                    .tag("operation", name)
                    .tag("status", status == null ? "200" : Integer.toString(status.value()))
                    .register(registry));
            if (countRounds) {
                rounds(name, "metadata").record(tally.metadata());
                rounds(name, "blocks").record(tally.blocks());
            }
        });
    }

    private DistributionSummary rounds(String operation, String kind) {
        return DistributionSummary.builder(ROUNDS)
                .description("Sequential rounds of inter-node calls per S3 request")
                .tag("operation", operation)
                .tag("kind", kind)
                .register(registry);
    }

    /** The round tally of the request of {@code exchange}; a fresh one if the filter did not run. */
    static RoundTrips.Tally tally(ServerWebExchange exchange) {
        Object tally = exchange.getAttribute(TALLY_ATTRIBUTE);
        return tally instanceof RoundTrips.Tally bound ? bound : new RoundTrips.Tally();
    }
}
