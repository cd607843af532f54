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
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatusCode;
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
    private static final int RESPONSE_BUFFER = 64 * 1024;
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Decodes the key of a path-style request: website keys are decoded exactly as S3 keys are. */
    private static final Addressing PATH_STYLE = new Addressing(null);

    private final S3Service service;
    private final @Nullable String domain;
    private final ExecutorService blocking;
    private final Scheduler blockingScheduler;

    /** @param domain base domain of website host names ({@code bucket.<domain>}), or null */
    WebsiteHandler(S3Service service, @Nullable String domain, ExecutorService blocking, Scheduler blockingScheduler) {
        this.service = service;
        this.domain = domain == null || domain.isBlank() ? null : domain.toLowerCase(Locale.ROOT);
        this.blocking = blocking;
        this.blockingScheduler = blockingScheduler;
    }

    @Override
    public Mono<ServerResponse> handle(ServerRequest serverRequest) {
        ServerHttpRequest http = serverRequest.exchange().getRequest();
        serverRequest.exchange().getAttributes().put(S3HandlerFunction.OPERATION_ATTRIBUTE, OPERATION);
        String requestId = requestId();
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
                .flatMap(response -> render(response, requestId));
    }

    private S3Response process(ServerHttpRequest http, String method, String bucket, RequestHeaders headers,
            String host, String requestId) {
        String key;
        try {
            key = key(http.getURI().getRawPath());
        } catch (S3Exception unparsable) {
            return errorPage(unparsable, method, requestId);
        }
        S3Request request = new S3Request(method, bucket, key.isEmpty() ? null : key, Map.of(), headers, host,
                requestId);
        String protocol = http.getSslInfo() != null ? "https" : "http";
        WebsiteRequest website = new WebsiteRequest("/" + key, host, protocol, http.getURI().getRawQuery());
        S3Response response = service.website(request, website, Caller.anonymous(context(http)));
        return withCors(response, request);
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

    /** The CORS headers of the bucket's rules, for pages fetched by scripts of another origin. */
    private S3Response withCors(S3Response response, S3Request request) {
        if (request.header("origin") == null) {
            return response;
        }
        Map<String, String> cors = service.corsHeaders(request);
        if (cors.isEmpty()) {
            return response;
        }
        Map<String, String> headers = new LinkedHashMap<>(response.headers());
        headers.putAll(cors);
        return new S3Response(response.status(), headers, response.body());
    }

    /** The request facts bucket policy conditions can test. */
    private static Map<String, List<String>> context(ServerHttpRequest http) {
        Map<String, List<String>> context = new LinkedHashMap<>();
        InetSocketAddress remote = http.getRemoteAddress();
        if (remote != null && remote.getAddress() != null) {
            context.put("aws:SourceIp", List.of(remote.getAddress().getHostAddress()));
        }
        context.put("aws:SecureTransport", List.of(Boolean.toString(http.getSslInfo() != null)));
        return context;
    }

    private Mono<ServerResponse> render(S3Response response, String requestId) {
        ServerResponse.BodyBuilder builder = ServerResponse.status(HttpStatusCode.valueOf(response.status()))
                .headers(headers -> {
                    headers.set("x-amz-request-id", requestId);
                    headers.set("x-amz-id-2", requestId);
                    headers.set("Server", "Hangar");
                    response.headers().forEach(headers::set);
                });
        return switch (response.body()) {
            case S3Response.Body.Empty empty -> builder.build();
            case S3Response.Body.Bytes bytes -> builder
                    .header("Content-Type", bytes.contentType())
                    .contentLength(bytes.data().length)
                    .body((message, context) -> message.writeWith(
                            Mono.fromSupplier(() -> message.bufferFactory().wrap(bytes.data()))));
            case S3Response.Body.Stream stream -> builder
                    .contentLength(stream.length())
                    .body((message, context) -> message.writeWith(DataBufferUtils.outputStreamPublisher(
                            out -> {
                                try {
                                    stream.writer().writeTo(out);
                                } catch (IOException e) {
                                    LOG.warn("website response body {} failed: {}", requestId, e.toString());
                                    throw new UncheckedIOException(e);
                                }
                            },
                            message.bufferFactory(), blocking, RESPONSE_BUFFER)));
        };
    }

    private static String requestId() {
        byte[] bytes = new byte[8];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().withUpperCase().formatHex(bytes);
    }
}
