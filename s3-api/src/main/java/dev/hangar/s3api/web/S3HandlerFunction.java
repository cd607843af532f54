package dev.hangar.s3api.web;

import dev.hangar.cluster.RoundTrips;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.Unavailable;
import dev.hangar.s3api.auth.Authentication;
import dev.hangar.s3api.auth.PayloadDecoder;
import dev.hangar.s3api.auth.PayloadMode;
import dev.hangar.s3api.auth.RequestAuthenticator;
import dev.hangar.s3api.auth.SignatureScheme;
import dev.hangar.s3api.auth.SignedRequest;
import dev.hangar.s3api.auth.VerifiedBody;
import dev.hangar.s3api.request.Addressing;
import dev.hangar.s3api.request.OperationRouter;
import dev.hangar.s3api.request.RequestHeaders;
import dev.hangar.s3api.request.S3Operation;
import dev.hangar.s3api.request.S3Request;
import dev.hangar.metadata.AccessKey;
import dev.hangar.s3api.semantics.Caller;
import dev.hangar.s3api.semantics.PostForm;
import dev.hangar.s3api.semantics.S3Response;
import dev.hangar.s3api.semantics.S3Service;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * The one handler of every S3 request: authenticates, routes to an operation, runs it on a blocking
 * executor (request bodies stream in through a bounded input stream, response bodies stream out
 * through an output stream, both with back-pressure) and renders S3 errors.
 */
final class S3HandlerFunction implements HandlerFunction<ServerResponse> {
    static final String OPERATION_ATTRIBUTE = "hangar.s3.operation";
    private static final Logger LOG = LoggerFactory.getLogger(S3HandlerFunction.class);

    private final S3Service service;
    private final Callers callers;
    private final String pathPrefix;
    private final PayloadDecoder decoder;
    private final Addressing addressing;
    private final ResponseWriter writer;
    private final Scheduler blockingScheduler;

    /**
     * @param callers who a request comes from: its signature, or an identity its listener established
     * @param pathPrefix what precedes the S3 path in a request's path ({@code /console/api/s3}), or empty
     */
    S3HandlerFunction(S3Service service, Callers callers, String pathPrefix, PayloadDecoder decoder,
            Addressing addressing, ExecutorService blocking, Scheduler blockingScheduler, Duration writeTimeout) {
        this.service = service;
        this.callers = callers;
        this.pathPrefix = pathPrefix;
        this.decoder = decoder;
        this.addressing = addressing;
        this.writer = new ResponseWriter(blocking, LOG, "response body stream", writeTimeout, service::httpDate);
        this.blockingScheduler = blockingScheduler;
    }

    /** Who a request comes from, and what its body decoder needs to know of how it was signed. */
    interface Callers {
        Identified identify(String method, String rawPath, RequestHeaders headers, String host,
                Map<String, List<String>> context, ServerHttpRequest http);
    }

    /** A request's caller, and the authentication its body is verified under. */
    record Identified(Caller caller, Authentication authentication) {}

    /**
     * The S3 listener's callers: whoever signed the request (Signature Version 4 or 2, header or presigned
     * URL), or anonymous when nothing is signed.
     */
    record SignedCallers(RequestAuthenticator authenticator, AuthenticationCounters counters,
            Addressing addressing, Function<String, Optional<AccessKey>> keys) implements Callers {
        @Override
        public Identified identify(String method, String rawPath, RequestHeaders headers, String host,
                Map<String, List<String>> context, ServerHttpRequest http) {
            Authentication authentication = authenticator.authenticate(
                    new SignedRequest(method, rawPath, http.getURI().getRawQuery(), headers.values()),
                    addressing.hostBucket(host));
            SignatureScheme scheme = authentication.scheme();
            counters.count(scheme);
            if (scheme == null) {
                return new Identified(Caller.anonymous(context), authentication);
            }
            context.put("s3:signatureversion", List.of(scheme.version().policyValue()));
            context.put("s3:authType", List.of(scheme.authType()));
            AccessKey key = keys.apply(authentication.accessKeyId())
                    .orElseThrow(() -> new S3Exception(S3Error.INVALID_ACCESS_KEY_ID));
            return new Identified(new Caller(key, context), authentication);
        }
    }

    /**
     * One fixed caller, established by the listener before the request gets here (the management port's
     * console, behind the administration token): nothing in the request is a signature, and its body is taken
     * as an unsigned payload (Content-MD5 and {@code x-amz-checksum-*} headers are still checked).
     */
    record DelegatedCaller(Supplier<AccessKey> key) implements Callers {
        @Override
        public Identified identify(String method, String rawPath, RequestHeaders headers, String host,
                Map<String, List<String>> context, ServerHttpRequest http) {
            return new Identified(new Caller(key.get(), context),
                    Authentication.anonymous(PayloadMode.UNSIGNED_PAYLOAD, null));
        }
    }

    @Override
    public Mono<ServerResponse> handle(ServerRequest serverRequest) {
        ServerWebExchange exchange = serverRequest.exchange();
        exchange.getAttributes().put(S3ExceptionHandler.S3_REQUEST_ATTRIBUTE, Boolean.TRUE);
        ServerHttpRequest http = exchange.getRequest();
        String requestId = Exchanges.requestId();
        String method = http.getMethod().name();
        String rawPath = s3Path(http.getURI().getRawPath());
        Map<String, List<String>> headerValues = new LinkedHashMap<>();
        http.getHeaders().forEach(headerValues::put);
        RequestHeaders headers = new RequestHeaders(headerValues);
        String host = headers.first("host") == null ? "localhost" : headers.first("host");
        RoundTrips.Tally tally = S3MetricsFilter.tally(exchange);
        return Mono.fromCallable(() -> {
                    try (RoundTrips.Binding counting = RoundTrips.bind(tally)) {
                        return process(exchange, method, rawPath, headers, host, requestId);
                    }
                })
                .subscribeOn(blockingScheduler)
                .onErrorResume(S3Exception.class,
                        error -> Mono.just(errorResponse(error, method, rawPath, host, requestId)))
                .onErrorResume(error -> !(error instanceof S3Exception), error -> {
                    S3Exception unavailable = Unavailable.of(error);
                    if (unavailable != null) {
                        LOG.warn("request {} {} failed: {}", method, rawPath, unavailable.getMessage());
                        return Mono.just(errorResponse(unavailable, method, rawPath, host, requestId));
                    }
                    LOG.error("request {} {} failed", method, rawPath, error);
                    return Mono.just(errorResponse(
                            new S3Exception(S3Error.INTERNAL_ERROR), method, rawPath, host, requestId));
                })
                // A response dropped before it is rendered (the exchange was cancelled) releases what its body holds.
                .doOnDiscard(S3Response.class, S3Response::abandon)
                .flatMap(response -> writer.render(response, requestId));
    }

    private S3Response process(ServerWebExchange exchange, String method, String rawPath, RequestHeaders headers,
            String host, String requestId) {
        ServerHttpRequest http = exchange.getRequest();
        Addressing.Target target = addressing.resolve(host, rawPath);
        S3Request request = new S3Request(method, target.bucket(), target.key(),
                Addressing.parseQuery(http.getURI().getRawQuery()), headers, host, requestId, Exchanges.secure(http));
        S3Operation operation = OperationRouter.route(request);
        S3MetricsFilter.routed(exchange, operation.name());
        Map<String, List<String>> context = Exchanges.policyContext(http);
        if (operation instanceof S3Operation.PostObject) {
            // A browser upload: the form carries the signature (of its policy), not an Authorization header.
            S3Response response = postObject(http, request, context);
            return Exchanges.withCors(service, response, request);
        }
        if (operation instanceof S3Operation.PreflightRequest) {
            // Browsers send preflights unsigned; the bucket's CORS rules alone answer them.
            return service.execute(operation, request, EmptyPayload.INSTANCE, Caller.anonymous(context));
        }
        Identified identified = callers.identify(method, rawPath, headers, host, context, http);
        InputStream raw = new RequestBodyStream(http.getBody());
        try (VerifiedBody verified = decoder.open(identified.authentication(), bodyHeaders(operation, headers), raw)) {
            S3Response response = service.execute(operation, request, new VerifiedPayload(verified, headers),
                    identified.caller());
            return Exchanges.withCors(service, response, request);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The S3 path of a request's raw path: without the prefix of the listener's route, {@code /} at least. */
    private String s3Path(String rawPath) {
        if (pathPrefix.isEmpty() || !rawPath.startsWith(pathPrefix)) {
            return rawPath;
        }
        String rest = rawPath.substring(pathPrefix.length());
        return rest.isEmpty() ? "/" : rest;
    }

    /**
     * POST Object: reads the multipart form's fields up to the file as they stream in, then lets the
     * semantics verify the policy and store the file straight from the body.
     */
    private S3Response postObject(ServerHttpRequest http, S3Request request, Map<String, List<String>> context) {
        MediaType contentType;
        try {
            contentType = http.getHeaders().getContentType();
        } catch (InvalidMediaTypeException e) {
            contentType = null;
        }
        if (contentType == null || !PostFormReader.isMultipartForm(contentType)) {
            throw new S3Exception(S3Error.REQUEST_IS_NOT_MULTIPART_CONTENT);
        }
        try (PostFormReader form = PostFormReader.open(http, contentType)) {
            PostForm fields = form.read(context);
            S3Response response = service.postObject(request, fields);
            if (callers instanceof SignedCallers signed) {
                signed.counters().count(SignatureScheme.ofPostForm(fields.fields()));
            }
            try {
                form.finish();
            } catch (IOException e) {
                // The object is stored; what followed the file is ignored, as S3 ignores it.
                LOG.debug("request {}: reading past the file of a POST upload failed: {}", request.requestId(),
                        e.toString());
            }
            return response;
        } catch (IOException e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof S3Exception s3) {
                    throw s3;
                }
            }
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The headers that describe the request body. A CompleteMultipartUpload's {@code
     * x-amz-checksum-*} headers are the whole object's checksum, checked against its parts, not
     * against the XML body.
     */
    private static Map<String, List<String>> bodyHeaders(S3Operation operation, RequestHeaders headers) {
        if (!(operation instanceof S3Operation.CompleteMultipartUpload)) {
            return headers.values();
        }
        Map<String, List<String>> filtered = new LinkedHashMap<>(headers.values());
        filtered.keySet().removeIf(name -> name.startsWith("x-amz-checksum-"));
        return filtered;
    }

    private S3Response errorResponse(S3Exception error, String method, String rawPath, String host, String requestId) {
        if (error.error().status() >= 500) {
            LOG.warn("request {} {} {} answered {}: {}", requestId, method, rawPath, error.error().code(), error.getMessage());
        }
        if (method.equals("HEAD")) {
            return S3Response.empty(error.error().status());
        }
        Addressing.Target target;
        try {
            target = addressing.resolve(host, rawPath);
        } catch (S3Exception unparsable) {
            target = new Addressing.Target(null, null);
        }
        return S3Response.xml(error.error().status(),
                service.errorDocument(error, rawPath, target.bucket(), target.key(), requestId));
    }

    /** Adapts the verified body of the auth layer to the payload the semantics read. */
    private record VerifiedPayload(VerifiedBody body, RequestHeaders headers) implements dev.hangar.s3api.semantics.Payload {
        @Override
        public InputStream stream() {
            return body;
        }

        @Override
        public long declaredLength() {
            String decoded = headers.first("x-amz-decoded-content-length");
            String length = decoded != null ? decoded : headers.first("content-length");
            if (length == null) {
                return -1;
            }
            try {
                return Long.parseLong(length.trim());
            } catch (NumberFormatException e) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT, "Content-Length is not a number: " + length);
            }
        }

        @Override
        public byte[] md5() {
            return body.md5();
        }

        @Override
        public java.util.Optional<dev.hangar.metadata.Checksum> checksum() {
            return body.checksum();
        }
    }
}
