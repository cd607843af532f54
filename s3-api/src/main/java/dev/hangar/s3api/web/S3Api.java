package dev.hangar.s3api.web;

import dev.hangar.cluster.ClusterNode;
import dev.hangar.metadata.AccessKey;
import dev.hangar.s3api.auth.PayloadDecoder;
import dev.hangar.s3api.auth.RequestAuthenticator;
import dev.hangar.s3api.request.Addressing;
import dev.hangar.s3api.semantics.LifecycleAction;
import dev.hangar.s3api.semantics.LifecycleWorker;
import dev.hangar.s3api.semantics.S3Service;
import dev.hangar.s3api.semantics.S3Settings;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.web.reactive.function.server.HandlerStrategies;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.WebExceptionHandler;
import org.springframework.web.server.WebFilter;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.http.server.HttpServer;

/**
 * The module's entry point: the S3 protocol over a {@link ClusterNode}, as one catch-all WebFlux
 * route plus a metrics filter. Blocking work (metadata, blocks, hashing) runs on virtual threads,
 * never on the Netty event loop.
 */
public final class S3Api implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(S3Api.class);
    /** The first lifecycle pass runs one interval after start, but no later than this. */
    private static final Duration FIRST_LIFECYCLE_PASS = Duration.ofMinutes(10);

    private final ExecutorService blocking;
    private final Scheduler scheduler;
    private final S3Service service;
    private final RouterFunction<ServerResponse> routes;
    private final WebFilter metricsFilter;
    private final WebFilter preflightFilter;
    private final WebFilter concurrencyFilter;
    private final ListenerLimits limits;
    private final @Nullable ScheduledExecutorService lifecycleTimer;

    /**
     * @param keys the access key of an access key id, if it exists
     * @param domain base domain for virtual-host-style addressing, or null
     * @param lifecycleInterval how often the lifecycle worker runs a pass over every bucket; zero or
     *     negative: never on its own (the administration can still run passes)
     * @param limits the S3 and website listeners' limits: the write timeout of response bodies and the
     *     concurrency limit are applied here, the connection limits by {@link ListenerLimits#applyTo}
     */
    public S3Api(ClusterNode node, S3Settings settings, Function<String, Optional<AccessKey>> keys,
            @Nullable String domain, MeterRegistry registry, Clock clock, Duration lifecycleInterval,
            ListenerLimits limits) {
        this.limits = limits;
        this.blocking = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("hangar-s3-", 0).factory());
        this.scheduler = Schedulers.fromExecutorService(blocking, "hangar-s3");
        this.service = new S3Service(node, settings, clock, keys);
        Addressing addressing = new Addressing(domain);
        S3HandlerFunction handler = new S3HandlerFunction(service, new S3HandlerFunction.SignedCallers(
                new RequestAuthenticator(settings.region(), clock, id -> keys.apply(id).map(AccessKey::secretKey),
                        settings.signatureV2()),
                new AuthenticationCounters(registry), addressing, keys), "", new PayloadDecoder(), addressing,
                blocking, scheduler, limits.writeTimeout());
        this.routes = RouterFunctions.route(RequestPredicates.all(), handler);
        this.preflightFilter = new PreflightFilter(handler);
        this.concurrencyFilter = new ConcurrencyLimit(limits.maxConcurrentRequests(), service);
        this.metricsFilter = new S3MetricsFilter(registry, node.control().isPresent());
        registerLifecycleCounters(registry, service.lifecycle());
        this.lifecycleTimer = scheduleLifecycle(service.lifecycle(), lifecycleInterval, clock);
    }

    /** The S3 semantics, for the website listener, background work and administration. */
    public S3Service service() {
        return service;
    }

    /**
     * The HTTP handler of the static website listener (a port of its own). Its requests are timed by
     * {@link #metricsFilter()} too, as operation {@code WebsiteGet}; CORS preflights reach it as well
     * (they get its 405 page), not Spring's CORS support.
     *
     * @param domain base domain of website host names ({@code bucket.<domain>}), or null: a host
     *     name outside it is taken whole as the bucket name, as with a CNAME
     */
    public HttpHandler websiteHttpHandler(@Nullable String domain) {
        WebsiteHandler handler = new WebsiteHandler(service, domain, blocking, scheduler, limits.writeTimeout());
        return RouterFunctions.toHttpHandler(RouterFunctions.route(RequestPredicates.all(), handler),
                HandlerStrategies.builder().webFilter(metricsFilter)
                        .webFilter(new ConcurrencyLimit(limits.maxConcurrentRequests(), service))
                        .webFilter(new PreflightFilter(handler)).build());
    }

    public RouterFunction<ServerResponse> routes() {
        return routes;
    }

    /**
     * The S3 API, path style, under {@code pathPrefix} and as one caller that a listener established itself
     * rather than by a request's signature: the management port's console, whose requests carry the
     * administration token instead (the listener must check it before these routes). Request bodies are taken
     * as unsigned payloads; the S3 rules, errors and streaming are those of {@link #routes()}. Requests through
     * these routes are not timed as S3 requests.
     *
     * @param pathPrefix the path these routes answer under, like {@code /console/api/s3}, without a trailing slash
     * @param caller the key every request acts as
     */
    public RouterFunction<ServerResponse> delegatedRoutes(String pathPrefix, Supplier<AccessKey> caller) {
        if (!pathPrefix.startsWith("/") || pathPrefix.endsWith("/")) {
            throw new IllegalArgumentException("a path prefix starts with / and does not end with one: " + pathPrefix);
        }
        S3HandlerFunction handler = new S3HandlerFunction(service, new S3HandlerFunction.DelegatedCaller(caller),
                pathPrefix, new PayloadDecoder(), new Addressing(null), blocking, scheduler, limits.writeTimeout());
        return RouterFunctions.route(RequestPredicates.path(pathPrefix)
                .or(RequestPredicates.path(pathPrefix + "/**")), handler);
    }

    /**
     * Sends CORS preflights straight to {@link #routes()}: register it with them, or WebFlux's
     * handler mapping answers preflights itself and the buckets' CORS rules are never asked.
     */
    public WebFilter preflightFilter() {
        return preflightFilter;
    }

    public WebFilter metricsFilter() {
        return metricsFilter;
    }

    /** Answers {@code 503 SlowDown} beyond the S3 listener's concurrency limit; register it with the routes. */
    public WebFilter concurrencyFilter() {
        return concurrencyFilter;
    }

    /**
     * Answers an exception that escaped the S3 handler with S3's XML InternalError rather than Spring Boot's
     * JSON body; register it with the routes (see {@link S3ExceptionHandler}).
     */
    public WebExceptionHandler exceptionHandler() {
        return new S3ExceptionHandler(service);
    }

    /**
     * Configures the S3 listener's Reactor Netty server so that requests Netty or Spring could not take apart
     * are answered with S3's errors rather than an empty 400, and raw UTF-8 in a target is read as UTF-8 (see
     * {@link RequestTargets}).
     *
     * @param api the S3 API, asked for only when such a request comes: the server is configured before the
     *     application's other parts exist
     */
    public static UnaryOperator<HttpServer> requestTargetCheck(Supplier<S3Api> api) {
        return RequestTargets.installer(() -> api.get().service);
    }

    @Override
    public void close() {
        if (lifecycleTimer != null) {
            // A running pass notices the interrupt at its next page and stops.
            lifecycleTimer.shutdownNow();
            try {
                lifecycleTimer.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        blocking.shutdown();
    }

    /** {@code hangar.lifecycle.actions}: what lifecycle passes did, by action. */
    private static void registerLifecycleCounters(MeterRegistry registry, LifecycleWorker lifecycle) {
        for (LifecycleAction action : LifecycleAction.values()) {
            FunctionCounter.builder("hangar.lifecycle.actions", lifecycle, worker -> worker.total(action))
                    .tag("action", action.tag())
                    .description("Lifecycle actions taken: objects expired, delete markers added or removed, "
                            + "noncurrent versions expired, uploads aborted")
                    .register(registry);
        }
    }

    /** One platform daemon thread runs a pass every interval, as of the clock's instant. */
    private static @Nullable ScheduledExecutorService scheduleLifecycle(LifecycleWorker lifecycle, Duration interval,
            Clock clock) {
        if (interval.isNegative() || interval.isZero()) {
            return null;
        }
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("hangar-lifecycle").daemon().factory());
        Duration first = interval.compareTo(FIRST_LIFECYCLE_PASS) < 0 ? interval : FIRST_LIFECYCLE_PASS;
        timer.scheduleWithFixedDelay(() -> {
            try {
                lifecycle.runOnce(clock.instant());
            } catch (RuntimeException e) {
                // An exception would cancel every later pass.
                LOG.warn("lifecycle pass failed; the next one runs in {}", interval, e);
            }
        }, first.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        return timer;
    }
}
