package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hangar.distribution.support.RawS3;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CORSRule;
import software.amazon.awssdk.services.s3.model.GetBucketCorsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Response;

/**
 * CORS: Put/Get/DeleteBucketCors through the SDK, browser preflights ({@code OPTIONS} with
 * {@code Origin} and {@code Access-Control-Request-*}, unsigned) answered from the bucket's rules,
 * and the CORS headers of actual, signed requests that carry an {@code Origin}.
 */
class CorsIT extends AbstractS3IT {

    private static final String APP = "https://app.example.com";
    private static final String VARY = "Origin, Access-Control-Request-Headers, Access-Control-Request-Method";

    @Autowired
    private MeterRegistry registry;

    private String bucket;

    @BeforeAll
    void corsBucket() {
        bucket = createBucket("cors");
        s3.putBucketCors(request -> request.bucket(bucket).corsConfiguration(cors -> cors.corsRules(
            CORSRule.builder()
                .id("app")
                .allowedOrigins(APP)
                .allowedMethods("GET", "PUT")
                .allowedHeaders("Content-Type", "x-amz-*")
                .exposeHeaders("ETag", "x-amz-request-id")
                .maxAgeSeconds(600)
                .build(),
            CORSRule.builder()
                .id("subdomains")
                .allowedOrigins("https://*.example.org")
                .allowedMethods("DELETE")
                .build(),
            CORSRule.builder()
                .id("anyone")
                .allowedOrigins("*")
                .allowedMethods("GET", "HEAD")
                .build())));
        s3.putObject(request -> request.bucket(bucket).key("photo.jpg"), RequestBody.fromString("jpeg"));
    }

    @Test
    void configurationReadsBackAsPut() {
        GetBucketCorsResponse cors = s3.getBucketCors(request -> request.bucket(bucket));
        assertThat(cors.corsRules()).hasSize(3);
        CORSRule app = cors.corsRules().getFirst();
        assertThat(app.id()).isEqualTo("app");
        assertThat(app.allowedOrigins()).containsExactly(APP);
        assertThat(app.allowedMethods()).containsExactly("GET", "PUT");
        assertThat(app.allowedHeaders()).containsExactly("Content-Type", "x-amz-*");
        assertThat(app.exposeHeaders()).containsExactly("ETag", "x-amz-request-id");
        assertThat(app.maxAgeSeconds()).isEqualTo(600);
    }

    @Test
    void allowedPreflightIsAnsweredWithTheRulesHeaders() {
        RawS3.Response response = preflight("/" + bucket + "/photo.jpg", APP, "PUT", "Content-Type, X-Amz-Date");

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(response.header("Access-Control-Allow-Origin")).contains(APP);
        assertThat(response.header("Access-Control-Allow-Methods")).contains("GET, PUT");
        assertThat(response.header("Access-Control-Allow-Headers")).contains("content-type, x-amz-date");
        assertThat(response.header("Access-Control-Expose-Headers")).contains("ETag, x-amz-request-id");
        assertThat(response.header("Access-Control-Max-Age")).contains("600");
        assertThat(response.header("Access-Control-Allow-Credentials")).contains("true");
        assertThat(response.header("Vary")).contains(VARY);
        assertThat(response.body()).isEmpty();
    }

    @Test
    void preflightOfTheBucketItselfIsAnswered() {
        RawS3.Response response = preflight("/" + bucket, APP, "GET", null);

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(response.header("Access-Control-Allow-Origin")).contains(APP);
        assertThat(response.header("Access-Control-Allow-Headers")).isEmpty();
    }

    @Test
    void wildcardOriginRuleAllowsAnyOriginWithoutCredentials() {
        RawS3.Response response = preflight("/" + bucket + "/photo.jpg", "https://elsewhere.test", "HEAD", null);

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(response.header("Access-Control-Allow-Origin")).contains("*");
        assertThat(response.header("Access-Control-Allow-Methods")).contains("GET, HEAD");
        assertThat(response.header("Access-Control-Allow-Credentials")).isEmpty();
        assertThat(response.header("Access-Control-Max-Age")).isEmpty();
    }

    @Test
    void wildcardInAnOriginPatternMatchesSubdomains() {
        RawS3.Response response = preflight("/" + bucket + "/photo.jpg", "https://shop.example.org", "DELETE", null);

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(response.header("Access-Control-Allow-Origin")).contains("https://shop.example.org");
        assertThat(response.header("Access-Control-Allow-Methods")).contains("DELETE");
    }

    @Test
    void preflightFromAnOriginNoRuleAllowsIsForbidden() {
        RawS3.Response response = preflight("/" + bucket + "/photo.jpg", "https://evil.example.net", "PUT", null);

        assertThat(response.status()).as(response.toString()).isEqualTo(403);
        assertThat(response.errorCode()).contains("AccessForbidden");
        assertThat(response.header("Access-Control-Allow-Origin")).isEmpty();
    }

    @Test
    void preflightForAMethodNoRuleAllowsIsForbidden() {
        RawS3.Response response = preflight("/" + bucket + "/photo.jpg", APP, "DELETE", null);

        assertThat(response.status()).as(response.toString()).isEqualTo(403);
        assertThat(response.errorCode()).contains("AccessForbidden");
    }

    @Test
    void preflightForAHeaderNoRuleAllowsIsForbidden() {
        RawS3.Response response = preflight("/" + bucket + "/photo.jpg", APP, "PUT", "Content-Type, X-Custom-Header");

        assertThat(response.status()).as(response.toString()).isEqualTo(403);
        assertThat(response.errorCode()).contains("AccessForbidden");
    }

    @Test
    void originsCompareCaseSensitively() {
        RawS3.Response response = preflight("/" + bucket + "/photo.jpg", "HTTPS://APP.EXAMPLE.COM", "PUT", null);

        assertThat(response.status()).as(response.toString()).isEqualTo(403);
    }

    @Test
    void preflightWithoutOriginIsABadRequest() {
        RawS3.Response response = raw.send(HttpRequest.newBuilder(URI.create(endpoint() + "/" + bucket + "/photo.jpg"))
            .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
            .header("Access-Control-Request-Method", "GET")
            .build());

        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.errorCode()).contains("BadRequest");
    }

    @Test
    void preflightToABucketWithoutCorsConfigurationIsForbidden() {
        String plain = createBucket("nocors");

        RawS3.Response response = preflight("/" + plain + "/photo.jpg", APP, "GET", null);

        assertThat(response.status()).as(response.toString()).isEqualTo(403);
        assertThat(response.errorCode()).contains("AccessForbidden");
        assertS3Error(() -> s3.getBucketCors(request -> request.bucket(plain)), 404, "NoSuchCORSConfiguration");
    }

    @Test
    void preflightToAMissingBucketIsNotFound() {
        RawS3.Response response = preflight("/" + newBucketName("nobucket") + "/photo.jpg", APP, "GET", null);

        assertThat(response.status()).as(response.toString()).isEqualTo(404);
        assertThat(response.errorCode()).contains("NoSuchBucket");
    }

    @Test
    void deletedConfigurationAnswersNoMorePreflights() {
        String temporary = createBucket("corsdel");
        s3.putBucketCors(request -> request.bucket(temporary).corsConfiguration(cors -> cors.corsRules(
            CORSRule.builder().allowedOrigins("*").allowedMethods("GET").build())));
        assertThat(preflight("/" + temporary + "/x", APP, "GET", null).status()).isEqualTo(200);

        s3.deleteBucketCors(request -> request.bucket(temporary));

        assertThat(preflight("/" + temporary + "/x", APP, "GET", null).status()).isEqualTo(403);
        assertS3Error(() -> s3.getBucketCors(request -> request.bucket(temporary)), 404, "NoSuchCORSConfiguration");
    }

    @Test
    void actualRequestFromAnAllowedOriginCarriesCorsHeaders() {
        ResponseBytes<GetObjectResponse> object = s3.getObjectAsBytes(request -> request.bucket(bucket).key("photo.jpg")
            .overrideConfiguration(o -> o.putHeader("Origin", APP)));

        assertThat(object.asUtf8String()).isEqualTo("jpeg");
        assertThat(header(object.response(), "Access-Control-Allow-Origin")).contains(APP);
        assertThat(header(object.response(), "Access-Control-Allow-Methods")).contains("GET, PUT");
        assertThat(header(object.response(), "Access-Control-Expose-Headers")).contains("ETag, x-amz-request-id");
        assertThat(header(object.response(), "Access-Control-Allow-Credentials")).contains("true");
        assertThat(header(object.response(), "Vary")).contains(VARY);

        PutObjectResponse put = s3.putObject(request -> request.bucket(bucket).key("upload.txt")
            .overrideConfiguration(o -> o.putHeader("Origin", APP)), RequestBody.fromString("uploaded"));
        assertThat(header(put, "Access-Control-Allow-Origin")).contains(APP);
    }

    @Test
    void actualRequestMatchedByTheWildcardRuleGetsAStar() {
        ResponseBytes<GetObjectResponse> object = s3.getObjectAsBytes(request -> request.bucket(bucket).key("photo.jpg")
            .overrideConfiguration(o -> o.putHeader("Origin", "https://elsewhere.test")));

        assertThat(header(object.response(), "Access-Control-Allow-Origin")).contains("*");
        assertThat(header(object.response(), "Access-Control-Allow-Credentials")).isEmpty();
    }

    @Test
    void actualRequestNoRuleAllowsIsServedWithoutCorsHeaders() {
        PutObjectResponse put = s3.putObject(request -> request.bucket(bucket).key("other.txt")
            .overrideConfiguration(o -> o.putHeader("Origin", "https://evil.example.net")), RequestBody.fromString("x"));

        assertThat(put.sdkHttpResponse().statusCode()).isEqualTo(200);
        assertThat(header(put, "Access-Control-Allow-Origin")).isEmpty();
    }

    @Test
    void actualRequestWithoutOriginHasNoCorsHeaders() {
        ResponseBytes<GetObjectResponse> object = s3.getObjectAsBytes(request -> request.bucket(bucket).key("photo.jpg"));

        assertThat(header(object.response(), "Access-Control-Allow-Origin")).isEmpty();
        assertThat(header(object.response(), "Vary")).isEmpty();
    }

    @Test
    void actualRequestIsMatchedOnItsAccessControlRequestMethodWhenItSendsOne() {
        // S3 matches an actual request that carries Access-Control-Request-Method on that method.
        ResponseBytes<GetObjectResponse> object = s3.getObjectAsBytes(request -> request.bucket(bucket).key("photo.jpg")
            .overrideConfiguration(o -> o
                .putHeader("Origin", "https://shop.example.org")
                .putHeader("Access-Control-Request-Method", "DELETE")));

        assertThat(header(object.response(), "Access-Control-Allow-Origin")).contains("https://shop.example.org");
        assertThat(header(object.response(), "Access-Control-Allow-Methods")).contains("DELETE");
    }

    @Test
    void preflightsAreTimedAsTheirOperation() {
        long before = preflightCount("200");

        // To the Spring test server: the registry is its own.
        preflight(URI.create("http://localhost:" + port), "/" + bucket + "/photo.jpg", APP, "GET", null);

        // The timer stops once the response is written, which may be just after the client has it.
        await().atMost(Duration.ofSeconds(10))
            .untilAsserted(() -> assertThat(preflightCount("200")).isGreaterThan(before));
    }

    private long preflightCount(String status) {
        return registry.find("hangar.s3.requests").tags("operation", "PreflightRequest", "status", status).timers()
            .stream()
            .mapToLong(Timer::count)
            .sum();
    }

    private RawS3.Response preflight(String path, String origin, String method, String headers) {
        return preflight(endpoint(), path, origin, method, headers);
    }

    private RawS3.Response preflight(URI node, String path, String origin, String method, String headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node + path))
            .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
            .header("Origin", origin)
            .header("Access-Control-Request-Method", method);
        if (headers != null) {
            request.header("Access-Control-Request-Headers", headers);
        }
        return raw.send(request.build());
    }

    private static Optional<String> header(S3Response response, String name) {
        return response.sdkHttpResponse().firstMatchingHeader(name);
    }
}
