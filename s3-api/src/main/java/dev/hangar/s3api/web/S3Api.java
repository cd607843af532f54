package dev.hangar.s3api.web;

import dev.hangar.cluster.ClusterNode;
import dev.hangar.metadata.AccessKey;
import dev.hangar.s3api.auth.PayloadDecoder;
import dev.hangar.s3api.auth.SigV4Verifier;
import dev.hangar.s3api.request.Addressing;
import dev.hangar.s3api.semantics.S3Service;
import dev.hangar.s3api.semantics.S3Settings;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.WebFilter;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The module's entry point: the S3 protocol over a {@link ClusterNode}, as one catch-all WebFlux
 * route plus a metrics filter. Blocking work (metadata, blocks, hashing) runs on virtual threads,
 * never on the Netty event loop.
 */
public final class S3Api implements AutoCloseable {
    private final ExecutorService blocking;
    private final S3Service service;
    private final RouterFunction<ServerResponse> routes;
    private final WebFilter metricsFilter;

    /**
     * @param keys the access key of an access key id, if it exists
     * @param domain base domain for virtual-host-style addressing, or null
     */
    public S3Api(ClusterNode node, S3Settings settings, Function<String, Optional<AccessKey>> keys,
            @Nullable String domain, MeterRegistry registry, Clock clock) {
        this.blocking = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("hangar-s3-", 0).factory());
        Scheduler scheduler = Schedulers.fromExecutorService(blocking, "hangar-s3");
        this.service = new S3Service(node, settings, clock);
        S3HandlerFunction handler = new S3HandlerFunction(service,
                new SigV4Verifier(settings.region(), clock, id -> keys.apply(id).map(AccessKey::secretKey)), keys,
                new PayloadDecoder(), new Addressing(domain), blocking, scheduler);
        this.routes = RouterFunctions.route(RequestPredicates.all(), handler);
        this.metricsFilter = new S3MetricsFilter(registry);
    }

    /** The S3 semantics, for the website listener, background work and administration. */
    public S3Service service() {
        return service;
    }

    /** The routes of the static website listener (a port of its own). */
    public RouterFunction<ServerResponse> websiteRoutes() {
        return RouterFunctions.route(RequestPredicates.all(), new WebsiteHandler(service));
    }

    public RouterFunction<ServerResponse> routes() {
        return routes;
    }

    public WebFilter metricsFilter() {
        return metricsFilter;
    }

    @Override
    public void close() {
        blocking.shutdown();
    }
}
