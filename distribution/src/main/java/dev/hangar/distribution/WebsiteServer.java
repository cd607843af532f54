package dev.hangar.distribution;

import java.time.Duration;
import dev.hangar.s3api.web.ListenerLimits;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * The static website listener: a Reactor Netty server of its own beside the S3 port, started and
 * stopped with the application context (it stops before the beans it serves from are closed).
 */
final class WebsiteServer implements SmartLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(WebsiteServer.class);
    private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(10);

    private final HttpHandler handler;
    private final String bindAddress;
    private final int configuredPort;
    private final ListenerLimits limits;
    private volatile @Nullable DisposableServer server;

    /** @param port the port to listen on; 0 picks a free one, which {@link #port()} tells once started */
    WebsiteServer(HttpHandler handler, String bindAddress, int port, ListenerLimits limits) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("hangar.website.port must be between 0 and 65535: " + port);
        }
        this.handler = handler;
        this.bindAddress = bindAddress;
        this.configuredPort = port;
        this.limits = limits;
    }

    @Override
    public synchronized void start() {
        if (server != null) {
            return;
        }
        try {
            server = limits.applyTo(InterimResponses.INSTANCE.apply(HttpServer.create()))
                    .host(bindAddress)
                    .port(configuredPort)
                    .handle(new ReactorHttpHandlerAdapter(handler))
                    .bindNow();
        } catch (RuntimeException e) {
            throw new IllegalStateException("The static website listener cannot listen on " + bindAddress + ":"
                    + configuredPort + " (set hangar.website.port, or hangar.website.enabled=false)", e);
        }
        LOG.info("Static website listener on {}:{}", bindAddress, port());
    }

    @Override
    public synchronized void stop() {
        DisposableServer running = server;
        if (running != null) {
            server = null;
            running.disposeNow(SHUTDOWN_GRACE);
        }
    }

    @Override
    public boolean isRunning() {
        return server != null;
    }

    /** The port the listener is bound to. */
    int port() {
        DisposableServer running = server;
        if (running == null) {
            throw new IllegalStateException("the static website listener is not running");
        }
        return running.port();
    }
}
