package dev.hangar.s3api.web;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.Addressing;
import dev.hangar.s3api.request.RequestHeaders;
import dev.hangar.s3api.request.S3Request;
import dev.hangar.s3api.semantics.Caller;
import dev.hangar.s3api.semantics.S3Response;
import dev.hangar.s3api.semantics.S3Service;
import dev.hangar.s3api.website.WebsiteErrorPages;
import dev.hangar.s3api.website.WebsiteOutcome;
import dev.hangar.s3api.website.WebsiteRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * The static website listener: anonymous GET and HEAD, the bucket named by the Host ({@code
 * bucket.<domain>}, or the whole host name, port left out, as with a CNAME). Resolution and access
 * checks are {@link S3Service#website}'s; this class turns HTTP into its request, runs it on the
 * blocking executor and streams the answer back as the S3 endpoint does.
 */
final class WebsiteHandler implements HandlerFunction<ServerResponse> {
    /** The operation tag of website requests in the {@code hangar.s3.requests} timer. */
    static final String OPERATION = "WebsiteGet";
    private static final Logger LOG = LoggerFactory.getLogger(WebsiteHandler.class);
    private static final String HTML = "text/html; charset=utf-8";
    /** Decodes the key of a path-style request: website keys are decoded exactly as S3 keys are. */
    private static final Addressing PATH_STYLE = new Addressing(null);

    private final S3Service service;
    private final @Nullable String domain;
    private final ResponseWriter writer;
    private final Scheduler blockingScheduler;

    /** @param domain base domain of website host names ({@code bucket.<domain>}), or null */
    WebsiteHandler(S3Service service, @Nullable String domain, ExecutorService blocking, Scheduler blockingScheduler,
            Duration writeTimeout) {
        this.service = service;
        this.domain = domain == null || domain.isBlank() ? null : domain.toLowerCase(Locale.ROOT);
        this.writer = new ResponseWriter(blocking, LOG, "website response body", writeTimeout, service::httpDate);
        this.blockingScheduler = blockingScheduler;
    }

    @Override
    public Mono<ServerResponse> handle(ServerRequest serverRequest) {
        ServerHttpRequest http = serverRequest.exchange().getRequest();
        S3MetricsFilter.routed(serverRequest.exchange(), OPERATION);
        String requestId = Exchanges.requestId();
        String method = http.getMethod().name();
        Map<String, List<String>> headerValues = new LinkedHashMap<>();
        http.getHeaders().forEach(headerValues::put);
        RequestHeaders headers = new RequestHeaders(headerValues);
        String host = headers.first("host") == null ? "" : headers.first("host");
        String bucket = bucket(host, domain);
        return Mono.fromCallable(() -> process(http, method, bucket, headers, host, requestId))
                .subscribeOn(blockingScheduler)
                .onErrorResume(error -> {
                    LOG.error("website request {} {} {} failed", requestId, method, http.getURI().getRawPath(), error);
                    return Mono.just(errorPage(new S3Exception(S3Error.INTERNAL_ERROR), method, requestId));
                })
                // A response dropped before it is rendered (the exchange was cancelled) releases what its body holds.
                .doOnDiscard(S3Response.class, S3Response::abandon)
                .flatMap(response -> writer.render(response, requestId));
    }

    private S3Response process(ServerHttpRequest http, String method, String bucket, RequestHeaders headers,
            String host, String requestId) {
        String key;
        try {
            key = key(http.getURI().getRawPath());
        } catch (S3Exception unparsable) {
            return errorPage(unparsable, method, requestId);
        }
        boolean secure = Exchanges.secure(http);
        S3Request request = new S3Request(method, bucket, key.isEmpty() ? null : key, Map.of(), headers, host,
                requestId, secure);
        String protocol = secure ? "https" : "http";
        WebsiteRequest website = new WebsiteRequest("/" + key, host, protocol, http.getURI().getRawQuery());
        S3Response response = service.website(request, website, Caller.anonymous(Exchanges.policyContext(http)));
        return Exchanges.withCors(service, response, request);
    }

    /** S3's HTML page for an error found before the request reaches the semantics (headers only for HEAD). */
    private static S3Response errorPage(S3Exception error, String method, String requestId) {
        S3Error code = error.error();
        if (method.equals("HEAD")) {
            return S3Response.empty(code.status(), Map.of("Content-Type", HTML));
        }
        String page = WebsiteErrorPages.render(
                new WebsiteOutcome.ErrorPage(code.status(), code.code(), error.getMessage(), null, null),
                requestId, requestId);
        return new S3Response(code.status(), Map.of(),
                new S3Response.Body.Bytes(page.getBytes(StandardCharsets.UTF_8), HTML));
    }

    /**
     * The bucket a Host names: {@code bucket.<domain>} gives {@code bucket}; any other host name,
     * without its port and trailing dot, is the bucket name itself (a CNAME to the website endpoint).
     */
    static String bucket(String host, @Nullable String domain) {
        String name = host.strip().toLowerCase(Locale.ROOT);
        int colon = name.lastIndexOf(':');
        if (colon >= 0 && name.indexOf(']') < colon) {
            name = name.substring(0, colon);
        }
        if (name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        if (domain != null) {
            String suffix = "." + domain;
            if (name.endsWith(suffix) && name.length() > suffix.length()) {
                return name.substring(0, name.length() - suffix.length());
            }
        }
        return name;
    }

    /** The requested key, percent-decoded as the S3 endpoint decodes a path-style key; empty for the root. */
    private static String key(String rawPath) {
        String path = rawPath.startsWith("/") ? rawPath : "/" + rawPath;
        String key = PATH_STYLE.resolve(null, "/website" + path).key();
        return key == null ? "" : key;
    }
}
