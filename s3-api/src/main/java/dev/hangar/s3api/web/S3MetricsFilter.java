package dev.hangar.s3api.web;

import dev.hangar.cluster.RoundTrips;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Times every S3 request from its arrival to the last byte of its response, tagged with the S3 operation and
 * the HTTP status (low cardinality: never a bucket or a key); counts the bytes of request and response bodies
 * that crossed the connection, and the requests in flight, per operation. On a cluster node it also records
 * how many sequential rounds of inter-node calls each request cost, for its metadata and for its blocks, per
 * operation. Only the S3 and website listeners' handlers carry this filter: the management port's traffic
 * (health probes, scrapes, administration) is not counted as S3 requests.
 */
final class S3MetricsFilter implements WebFilter {
    static final String TIMER = "hangar.s3.requests";
    static final String ROUNDS = "hangar.cluster.rounds";
    static final String RECEIVED = "hangar.s3.received";
    static final String SENT = "hangar.s3.sent";
    static final String IN_FLIGHT = "hangar.s3.requests.in.flight";
    /** The exchange attribute holding the request's {@link RoundTrips.Tally}. */
    static final String TALLY_ATTRIBUTE = "hangar.cluster.tally";
    /** The exchange attribute holding the request's {@link Tracking}. */
    private static final String TRACKING_ATTRIBUTE = "hangar.s3.tracking";

    private final MeterRegistry registry;
    private final boolean countRounds;
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    private final Map<String, Counter> received = new ConcurrentHashMap<>();
    private final Map<String, Counter> sent = new ConcurrentHashMap<>();

    S3MetricsFilter(MeterRegistry registry, boolean countRounds) {
        this.registry = registry;
        this.countRounds = countRounds;
    }

    /**
     * Records that the request of {@code exchange} is the S3 operation {@code name}: the tag of its meters, and
     * from now on one of that operation's requests in flight.
     */
    static void routed(ServerWebExchange exchange, String name) {
        exchange.getAttributes().put(S3HandlerFunction.OPERATION_ATTRIBUTE, name);
        Object tracking = exchange.getAttribute(TRACKING_ATTRIBUTE);
        if (tracking instanceof Tracking request) {
            request.routed(name);
        }
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        Timer.Sample sample = Timer.start(registry);
        RoundTrips.Tally tally = new RoundTrips.Tally();
        Tracking tracking = new Tracking();
        ServerWebExchange counted = exchange.mutate()
                .request(new CountingRequest(exchange, tracking.received))
                .response(new CountingResponse(exchange, tracking.sent))
                .build();
        counted.getAttributes().put(TALLY_ATTRIBUTE, tally);
        counted.getAttributes().put(TRACKING_ATTRIBUTE, tracking);
        return chain.filter(counted).doFinally(signal -> {
            String name = tracking.finish();
            HttpStatusCode status = counted.getResponse().getStatusCode();
            sample.stop(Timer.builder(TIMER)
                    .description("S3 requests, from arrival to the end of the response")
                    .tag("operation", name)
                    .tag("status", status == null ? "200" : Integer.toString(status.value()))
                    .register(registry));
            received.computeIfAbsent(name, operation -> bytes(RECEIVED, operation,
                    "Bytes of S3 request bodies received, as they came on the connection")).increment(tracking.received.get());
            sent.computeIfAbsent(name, operation -> bytes(SENT, operation, "Bytes of S3 response bodies sent"))
                    .increment(tracking.sent.get());
            if (countRounds) {
                rounds(name, "metadata").record(tally.metadata());
                rounds(name, "blocks").record(tally.blocks());
            }
        });
    }

    private Counter bytes(String meter, String operation, String description) {
        return Counter.builder(meter).baseUnit("bytes").description(description).tag("operation", operation)
                .register(registry);
    }

    private DistributionSummary rounds(String operation, String kind) {
        return DistributionSummary.builder(ROUNDS)
                .description("Sequential rounds of inter-node calls per S3 request")
                .tag("operation", operation)
                .tag("kind", kind)
                .register(registry);
    }

    private AtomicInteger inFlight(String operation) {
        return inFlight.computeIfAbsent(operation, name -> {
            AtomicInteger count = new AtomicInteger();
            Gauge.builder(IN_FLIGHT, count, AtomicInteger::get)
                    .description("S3 requests routed to the operation and not yet answered to their last byte")
                    .tag("operation", name)
                    .register(registry);
            return count;
        });
    }

    /** The round tally of the request of {@code exchange}; a fresh one if the filter did not run. */
    static RoundTrips.Tally tally(ServerWebExchange exchange) {
        Object tally = exchange.getAttribute(TALLY_ATTRIBUTE);
        return tally instanceof RoundTrips.Tally bound ? bound : new RoundTrips.Tally();
    }

    /** One request's operation, once routed, and the bytes of its bodies. */
    private final class Tracking {
        final AtomicLong received = new AtomicLong();
        final AtomicLong sent = new AtomicLong();
        private @Nullable String operation;
        private boolean finished;

        synchronized void routed(String name) {
            if (operation == null && !finished) {
                operation = name;
                inFlight(name).incrementAndGet();
            }
        }

        /** The operation's name for the meters ("Unknown" if never routed); no longer in flight. */
        synchronized String finish() {
            finished = true;
            if (operation == null) {
                return "Unknown";
            }
            inFlight(operation).decrementAndGet();
            return operation;
        }
    }

    private static final class CountingRequest extends ServerHttpRequestDecorator {
        private final AtomicLong received;

        CountingRequest(ServerWebExchange exchange, AtomicLong received) {
            super(exchange.getRequest());
            this.received = received;
        }

        @Override
        public Flux<DataBuffer> getBody() {
            return super.getBody().doOnNext(buffer -> received.addAndGet(buffer.readableByteCount()));
        }
    }

    private static final class CountingResponse extends ServerHttpResponseDecorator {
        private final AtomicLong sent;

        CountingResponse(ServerWebExchange exchange, AtomicLong sent) {
            super(exchange.getResponse());
            this.sent = sent;
        }

        @Override
        public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
            // A Mono stays one: Reactor Netty sends a single-buffer body with its headers in one write.
            Publisher<? extends DataBuffer> counted = body instanceof Mono<? extends DataBuffer> one
                    ? one.doOnNext(this::count)
                    : Flux.from(body).doOnNext(this::count);
            return super.writeWith(counted);
        }

        private void count(DataBuffer buffer) {
            sent.addAndGet(buffer.readableByteCount());
        }

        @Override
        public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
            return super.writeAndFlushWith(Flux.from(body).map(part -> Flux.from(part).doOnNext(this::count)));
        }
    }
}
