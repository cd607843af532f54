package dev.hangar.s3api.web;

import dev.hangar.s3api.request.S3Request;
import dev.hangar.s3api.semantics.S3Response;
import dev.hangar.s3api.semantics.S3Service;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * What the S3 and the website handlers both do around a request: give it an id, collect the facts
 * bucket policy conditions test, and add the bucket's CORS headers to the answer.
 */
final class Exchanges {
    private static final SecureRandom RANDOM = new SecureRandom();

    private Exchanges() {}

    /** A new request id: 16 upper-case hex digits, sent as {@code x-amz-request-id}. */
    static String requestId() {
        byte[] bytes = new byte[8];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().withUpperCase().formatHex(bytes);
    }

    /**
     * Whether the request came over TLS to this listener. Not the URI's scheme: with forwarded headers trusted
     * (Spring Boot trusts them by itself on Kubernetes and other cloud platforms) a client could say
     * {@code X-Forwarded-Proto: https} over plain HTTP. Behind a proxy that terminates TLS, Hangar sees plain HTTP.
     */
    static boolean secure(ServerHttpRequest http) {
        return http.getSslInfo() != null;
    }

    /** The request facts bucket policy conditions can test. */
    static Map<String, List<String>> policyContext(ServerHttpRequest http) {
        Map<String, List<String>> context = new LinkedHashMap<>();
        InetSocketAddress remote = http.getRemoteAddress();
        if (remote != null && remote.getAddress() != null) {
            context.put("aws:SourceIp", List.of(remote.getAddress().getHostAddress()));
        }
        context.put("aws:SecureTransport", List.of(Boolean.toString(secure(http))));
        return context;
    }

    /**
     * Adds the CORS headers of the bucket's rules when the request came from a browser origin (a
     * script of another origin, for a website page).
     */
    static S3Response withCors(S3Service service, S3Response response, S3Request request) {
        if (request.header("origin") == null) {
            return response;
        }
        Map<String, String> cors;
        try {
            cors = service.corsHeaders(request);
        } catch (RuntimeException e) {
            response.abandon();
            throw e;
        }
        if (cors.isEmpty()) {
            return response;
        }
        Map<String, String> headers = new LinkedHashMap<>(response.headers());
        headers.putAll(cors);
        return new S3Response(response.status(), headers, response.body());
    }
}
