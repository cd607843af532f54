package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.cors.Cors;
import dev.hangar.s3api.cors.CorsConfiguration;
import dev.hangar.s3api.cors.PreflightAnswer;
import dev.hangar.s3api.request.S3Request;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** CORS: preflight requests answered from the bucket's rules, and the headers of actual requests. */
final class CorsOperations {
    private final BucketConfigurations configurations;
    private final ObjectOperations objects;

    CorsOperations(BucketConfigurations configurations, ObjectOperations objects) {
        this.configurations = configurations;
        this.objects = objects;
    }

    S3Response preflight(S3Request request) {
        String origin = request.header("origin");
        String method = request.header("access-control-request-method");
        if (origin == null || method == null) {
            throw Cors.originMissing();
        }
        String bucket = request.requireBucket();
        objects.requireBucket(bucket);
        CorsConfiguration configuration = configurations.cors(bucket).orElseThrow(Cors::notEnabled);
        String requested = request.header("access-control-request-headers");
        List<String> headers = requested == null ? List.of() : Arrays.asList(requested.split(","));
        PreflightAnswer answer = Cors.preflight(configuration, origin, method, headers)
                .orElseThrow(Cors::preflightNotAllowed);
        return S3Response.empty(200, answer.headers());
    }

    /** The CORS headers of an actual request from an origin the bucket's rules allow; empty otherwise. */
    Map<String, String> actualRequestHeaders(S3Request request) {
        String origin = request.header("origin");
        String bucket = request.bucket();
        if (origin == null || bucket == null) {
            return Map.of();
        }
        // S3 matches a non-preflight request that names an Access-Control-Request-Method on that method.
        String requestedMethod = request.header("access-control-request-method");
        String method = requestedMethod != null ? requestedMethod : request.method();
        try {
            Optional<CorsConfiguration> configuration = configurations.cors(bucket);
            return configuration.flatMap(rules -> Cors.actualRequestHeaders(rules, origin, method))
                    .orElse(Map.of());
        } catch (S3Exception unreadable) {
            return Map.of();
        }
    }
}
