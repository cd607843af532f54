package dev.hangar.distribution;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Guards the management port, before any endpoint sees a request: a {@code Host} that is not a name of this
 * server is refused with 403 (DNS rebinding, see {@link AllowedHosts}), whatever the request carries; then every
 * request under a guarded path (the Actuator base path, the console's API) needs
 * {@code Authorization: Bearer <token>} (401 with {@code WWW-Authenticate: Bearer} otherwise), except those to
 * the open endpoints (health and Prometheus by default). Other paths pass: the console's static page, which holds
 * nothing but code, and paths nothing answers but with a 404.
 */
final class AdministrationFilter implements WebFilter, Ordered {
    private static final Logger LOG = LoggerFactory.getLogger(AdministrationFilter.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String BEARER = "bearer ";
    private static final String REALM = "Bearer realm=\"hangar-admin\"";
    /** A hostile Host is echoed in the refusal only this long. */
    private static final int ECHOED_HOST_LENGTH = 100;
    /** Administration requests are small; a refused one's body is read this far at most. */
    private static final long DISCARDED_BODY_LIMIT = 1024 * 1024;

    private final AdminToken token;
    private final AllowedHosts hosts;
    private final List<String> guardedPaths;
    private final List<String> openPaths;

    /**
     * @param guardedPaths the paths whose requests need the token, with their sub-paths ({@code /actuator})
     * @param openPaths the paths of the endpoints readable without the token ({@code /actuator/health}); their
     *     sub-paths are open too
     */
    AdministrationFilter(AdminToken token, AllowedHosts hosts, List<String> guardedPaths, List<String> openPaths) {
        this.token = token;
        this.hosts = hosts;
        this.guardedPaths = List.copyOf(guardedPaths);
        this.openPaths = List.copyOf(openPaths);
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        String host = request.getHeaders().getFirst(HttpHeaders.HOST);
        if (!hosts.allows(host)) {
            LOG.debug("refused {} {}: Host {}", request.getMethod(), request.getPath(), host);
            return refuse(exchange, HttpStatus.FORBIDDEN, host == null
                    ? "a request to the management port must name it in its Host header"
                    : "Host " + echoed(host) + " is not a name of this server: list it in hangar.admin.allowed-hosts"
                            + " to administer the server under that name", null);
        }
        String path = request.getPath().pathWithinApplication().value();
        if (guardedPaths.stream().noneMatch(guarded -> under(path, guarded))
                || openPaths.stream().anyMatch(open -> under(path, open))) {
            return chain.filter(exchange);
        }
        String authorization = request.getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
        if (authorization == null) {
            return refuse(exchange, HttpStatus.UNAUTHORIZED,
                    "the administration API needs the token: Authorization: Bearer <token>", REALM);
        }
        if (!authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())
                || !token.matches(authorization.substring(BEARER.length()).strip())) {
            LOG.debug("refused {} {}: wrong administration token", request.getMethod(), request.getPath());
            return refuse(exchange, HttpStatus.UNAUTHORIZED, "wrong administration token",
                    REALM + ", error=\"invalid_token\"");
        }
        return chain.filter(exchange);
    }

    /**
     * Right after {@link ManagementConcurrencyLimit} (which must bound refused requests too), before every other
     * filter, so that none sees a request refused here.
     */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 1;
    }

    private static boolean under(String path, String prefix) {
        return path.equals(prefix) || path.startsWith(prefix.endsWith("/") ? prefix : prefix + "/");
    }

    private static String echoed(String host) {
        String shown = host.length() > ECHOED_HOST_LENGTH ? host.substring(0, ECHOED_HOST_LENGTH) + "..." : host;
        return shown.toLowerCase(Locale.ROOT);
    }

    private static Mono<Void> refuse(ServerWebExchange exchange, HttpStatus status, String error,
            @Nullable String challenge) {
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(status);
        response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
        if (challenge != null) {
            response.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, challenge);
        }
        // The same shape as the endpoints' own refusals.
        byte[] body = JSON.writeValueAsString(Map.of("error", error)).getBytes(StandardCharsets.UTF_8);
        return discardBody(exchange.getRequest())
                .then(Mono.defer(() -> response.writeWith(Mono.just(response.bufferFactory().wrap(body)))));
    }

    /**
     * Reads and drops a refused request's body first, up to a limit: a connection closed with unread bytes is
     * reset, and the client may then never see the refusal.
     */
    private static Mono<Void> discardBody(ServerHttpRequest request) {
        AtomicLong read = new AtomicLong();
        return request.getBody()
                .map(buffer -> {
                    int size = buffer.readableByteCount();
                    DataBufferUtils.release(buffer);
                    return size;
                })
                .takeWhile(size -> read.addAndGet(size) <= DISCARDED_BODY_LIMIT)
                .then();
    }
}
