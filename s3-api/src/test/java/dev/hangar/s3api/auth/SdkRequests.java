package dev.hangar.s3api.auth;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.checksums.spi.ChecksumAlgorithm;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner.AuthLocation;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * Builds requests signed by the AWS SDK's own {@link AwsV4HttpSigner} (the implementation every Java client
 * runs), and turns the result into what the HTTP layer hands to the verifier: the request exactly as sent
 * plus the body bytes as they would cross the wire (aws-chunked framing included).
 */
final class SdkRequests {
    static final String REGION = "us-east-1";
    static final String ACCESS_KEY = "AKIAHANGAREXAMPLE";
    static final String SECRET_KEY = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
    static final Instant NOW = Instant.parse("2024-05-01T12:00:00Z");

    /** A signed request and the bytes of its body as sent. */
    record Signed(SignedRequest request, byte[] body) {
        Signed withBody(byte[] newBody) {
            return new Signed(request, newBody);
        }

        Signed withHeader(String name, String value) {
            Map<String, List<String>> headers = new LinkedHashMap<>(request.headers());
            headers.put(name.toLowerCase(Locale.ROOT), List.of(value));
            return new Signed(new SignedRequest(request.method(), request.rawPath(), request.rawQuery(), headers),
                    body);
        }

        Signed withoutHeader(String name) {
            Map<String, List<String>> headers = new LinkedHashMap<>(request.headers());
            headers.remove(name.toLowerCase(Locale.ROOT));
            return new Signed(new SignedRequest(request.method(), request.rawPath(), request.rawQuery(), headers),
                    body);
        }

        Signed withPath(String rawPath) {
            return new Signed(new SignedRequest(request.method(), rawPath, request.rawQuery(), request.headers()),
                    body);
        }

        Signed withQuery(@Nullable String rawQuery) {
            return new Signed(new SignedRequest(request.method(), request.rawPath(), rawQuery, request.headers()),
                    body);
        }
    }

    private final SdkHttpMethod method;
    private final String bucket;
    private final String key;
    private @Nullable String rawPath;
    private final Map<String, String> query = new LinkedHashMap<>();
    private final Map<String, String> headers = new LinkedHashMap<>();
    private byte @Nullable [] body;
    private boolean https;
    private @Nullable Boolean payloadSigning;
    private boolean chunked;
    private @Nullable ChecksumAlgorithm checksumAlgorithm;
    private @Nullable Duration presignedFor;
    private Instant signedAt = NOW;
    private String accessKey = ACCESS_KEY;
    private String secretKey = SECRET_KEY;
    private String region = REGION;
    private String service = "s3";

    private SdkRequests(SdkHttpMethod method, String bucket, String key) {
        this.method = method;
        this.bucket = bucket;
        this.key = key;
    }

    static SdkRequests put(String bucket, String key, byte[] body) {
        return new SdkRequests(SdkHttpMethod.PUT, bucket, key).body(body);
    }

    /** A PUT whose path is sent exactly as given, for encodings the SDK's own path encoder would not make. */
    static SdkRequests putRawPath(String encodedPath, byte[] body) {
        SdkRequests request = new SdkRequests(SdkHttpMethod.PUT, "", "").body(body);
        request.rawPath = encodedPath;
        return request;
    }

    static SdkRequests get(String bucket, String key) {
        return new SdkRequests(SdkHttpMethod.GET, bucket, key);
    }

    static Clock clockAt(Instant instant) {
        return Clock.fixed(instant, ZoneOffset.UTC);
    }

    static Function<String, Optional<String>> secretKeys() {
        return accessKeyId -> accessKeyId.equals(ACCESS_KEY) ? Optional.of(SECRET_KEY) : Optional.empty();
    }

    static SigV4Verifier verifier() {
        return new SigV4Verifier(REGION, clockAt(NOW), secretKeys());
    }

    SdkRequests body(byte[] bytes) {
        this.body = bytes.clone();
        return this;
    }

    SdkRequests query(String name, String value) {
        query.put(name, value);
        return this;
    }

    SdkRequests header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    /** HTTPS: without it the SDK refuses to leave a body unsigned. */
    SdkRequests https() {
        this.https = true;
        return this;
    }

    SdkRequests payloadSigning(boolean enabled) {
        this.payloadSigning = enabled;
        return this;
    }

    SdkRequests chunked() {
        this.chunked = true;
        return this;
    }

    SdkRequests checksum(ChecksumAlgorithm algorithm) {
        this.checksumAlgorithm = algorithm;
        return this;
    }

    /**
     * Presigns, with payload signing off as the SDK's {@code S3Presigner} sets it: a presigned URL then signs
     * {@code UNSIGNED-PAYLOAD}. (The bare signer left to its defaults would sign the empty body's hash.)
     */
    SdkRequests presigned(Duration validity) {
        this.presignedFor = validity;
        this.payloadSigning = false;
        return this;
    }

    SdkRequests signedAt(Instant instant) {
        this.signedAt = instant;
        return this;
    }

    SdkRequests credentials(String accessKeyId, String secret) {
        this.accessKey = accessKeyId;
        this.secretKey = secret;
        return this;
    }

    SdkRequests scope(String signingRegion, String signingService) {
        this.region = signingRegion;
        this.service = signingService;
        return this;
    }

    Signed sign() {
        String encodedPath = rawPath != null
                ? rawPath
                : "/" + bucket + (key.isEmpty() ? "" : "/" + SdkHttpUtils.urlEncodeIgnoreSlashes(key));
        SdkHttpRequest.Builder builder = SdkHttpRequest.builder()
                .method(method)
                .protocol(https ? "https" : "http")
                .host("localhost")
                .port(9000)
                .encodedPath(encodedPath);
        query.forEach((name, value) -> builder.putRawQueryParameter(name, value));
        headers.forEach(builder::putHeader);
        byte[] payload = body;
        if (payload != null) {
            builder.putHeader("Content-Length", Integer.toString(payload.length));
        }
        SdkHttpRequest unsigned = builder.build();
        var signer = AwsV4HttpSigner.create();
        var signed = signer.sign(request -> {
            request.identity(AwsCredentialsIdentity.create(accessKey, secretKey))
                    .request(unsigned)
                    .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                    .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, service)
                    .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
                    .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
                    .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, clockAt(signedAt));
            if (payload != null) {
                request.payload(() -> new ByteArrayInputStream(payload));
            }
            if (payloadSigning != null) {
                request.putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, payloadSigning);
            }
            if (chunked) {
                request.putProperty(AwsV4HttpSigner.CHUNK_ENCODING_ENABLED, true);
            }
            if (checksumAlgorithm != null) {
                request.putProperty(AwsV4HttpSigner.CHECKSUM_ALGORITHM, checksumAlgorithm);
            }
            if (presignedFor != null) {
                request.putProperty(AwsV4HttpSigner.AUTH_LOCATION, AuthLocation.QUERY_STRING)
                        .putProperty(AwsV4HttpSigner.EXPIRATION_DURATION, presignedFor);
            }
        });
        SdkHttpRequest sent = signed.request();
        Map<String, List<String>> sentHeaders = new LinkedHashMap<>();
        sent.forEachHeader((name, values) -> sentHeaders.put(name, new ArrayList<>(values)));
        byte[] sentBody;
        try {
            sentBody = signed.payload().isPresent()
                    ? signed.payload().get().newStream().readAllBytes()
                    : (payload == null ? new byte[0] : payload.clone());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Signed(new SignedRequest(sent.method().name(), sent.encodedPath(),
                sent.encodedQueryParameters().orElse(null), sentHeaders), sentBody);
    }
}
