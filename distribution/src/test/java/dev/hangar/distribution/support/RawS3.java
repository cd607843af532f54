package dev.hangar.distribution.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignRequest;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Hand-built S3 requests: signed with the SDK's own {@link AwsV4HttpSigner} (so the signature
 * logic is AWS's, not ours) and sent with {@code java.net.http}, which lets a test choose the
 * payload mode, the signing clock, or tamper with the bytes after signing.
 *
 * <p>The signer refuses to leave a payload unsigned over plain HTTP: it silently signs it. Requests
 * meant to carry {@code UNSIGNED-PAYLOAD} or {@code STREAMING-UNSIGNED-PAYLOAD-TRAILER} are therefore
 * built with {@link #request(SdkHttpMethod, String, boolean) signAsHttps}: the scheme is no part of a
 * SigV4 signature, and {@link #send} always talks plain HTTP to the test server.
 */
public final class RawS3 {

    private static final Set<String> RESTRICTED_HEADERS = Set.of("host", "content-length", "connection", "expect", "upgrade");
    private static final Pattern ERROR_CODE = Pattern.compile("<Code>([^<]*)</Code>");

    private final Supplier<URI> endpoints;
    private final String region;
    private final AwsCredentialsIdentity credentials;
    private final HttpClient http;
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

    public RawS3(URI endpoint, String region, String accessKey, String secretKey, HttpClient http) {
        this(() -> endpoint, region, accessKey, secretKey, http);
    }

    /**
     * Requests to the endpoint {@code endpoints} gives for each request built, e.g. each node of a
     * cluster in turn ({@link RoundRobinNodes}).
     */
    public RawS3(Supplier<URI> endpoints, String region, String accessKey, String secretKey, HttpClient http) {
        this.endpoints = endpoints;
        this.region = region;
        this.credentials = AwsCredentialsIdentity.create(accessKey, secretKey);
        this.http = http;
    }

    public static HttpClient newHttpClient() {
        return HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    }

    public SdkHttpRequest.Builder request(SdkHttpMethod method, String encodedPath) {
        return request(method, encodedPath, false);
    }

    /**
     * A request to the test server (the next endpoint of a spreading {@code RawS3}).
     *
     * @param signAsHttps build the request as https (see the class comment); {@link #send} still uses http
     */
    public SdkHttpRequest.Builder request(SdkHttpMethod method, String encodedPath, boolean signAsHttps) {
        URI endpoint = endpoints.get();
        return SdkHttpRequest.builder()
            .method(method)
            .protocol(signAsHttps ? "https" : "http")
            .host(endpoint.getHost())
            .port(endpoint.getPort())
            .encodedPath(encodedPath);
    }

    /** Signs with S3's settings (no double URL encoding, no path normalisation), then the given properties. */
    public SignedRequest sign(SdkHttpRequest request, ContentStreamProvider payload,
                              Consumer<SignRequest.Builder<AwsCredentialsIdentity>> properties) {
        return signer.sign(builder -> {
            builder.identity(credentials)
                .request(request)
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
                .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false);
            if (payload != null) {
                builder.payload(payload);
            }
            properties.accept(builder);
        });
    }

    public SignedRequest sign(SdkHttpRequest request, byte[] payload,
                              Consumer<SignRequest.Builder<AwsCredentialsIdentity>> properties) {
        return sign(request, payload == null ? null : ContentStreamProvider.fromByteArray(payload), properties);
    }

    /** Sends a signed request with the body the signer produced (plain, or aws-chunked). */
    public Response send(SignedRequest signed) {
        byte[] body = signed.payload().map(RawS3::readAll).orElse(null);
        return send(signed.request(), body);
    }

    /**
     * Sends the request's headers with the given body, over plain HTTP to the host and port it was
     * built (and signed) for; the body may differ from what was signed.
     */
    public Response send(SdkHttpRequest request, byte[] body) {
        URI signedUri = request.getUri();
        String target = "http://" + request.host() + ":" + request.port() + signedUri.getRawPath()
            + (signedUri.getRawQuery() == null ? "" : "?" + signedUri.getRawQuery());
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(target))
            .version(HttpClient.Version.HTTP_1_1)
            .timeout(Duration.ofMinutes(2));
        for (Map.Entry<String, List<String>> header : request.headers().entrySet()) {
            if (RESTRICTED_HEADERS.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                continue;
            }
            for (String value : header.getValue()) {
                builder.header(header.getKey(), value);
            }
        }
        HttpRequest.BodyPublisher publisher = body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body);
        builder.method(request.method().name(), publisher);
        return send(builder.build());
    }

    public Response send(HttpRequest request) {
        try {
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            return new Response(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static byte[] readAll(ContentStreamProvider provider) {
        try (InputStream stream = provider.newStream()) {
            return stream.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Extracts {@code <Code>} of an S3 error document. */
    public static Optional<String> errorCode(String xml) {
        Matcher matcher = ERROR_CODE.matcher(xml);
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    public record Response(int status, HttpHeaders headers, byte[] body) {

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public Optional<String> errorCode() {
            return RawS3.errorCode(bodyText());
        }

        public Optional<String> header(String name) {
            return headers.firstValue(name);
        }

        @Override
        public String toString() {
            return "HTTP " + status + " " + headers.map() + "\n" + bodyText();
        }
    }
}
