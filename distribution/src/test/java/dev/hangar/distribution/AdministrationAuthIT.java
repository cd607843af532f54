package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.S3Clients;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ExpirationStatus;
import software.amazon.awssdk.services.s3.model.LifecycleExpiration;
import software.amazon.awssdk.services.s3.model.LifecycleRule;
import software.amazon.awssdk.services.s3.model.LifecycleRuleFilter;

/**
 * The administration API on the management port is authenticated: every administration endpoint wants the
 * bearer token, a request whose Host is not a name of this server is refused whatever it carries (DNS
 * rebinding), health and Prometheus stay open, the management port answers no S3, and bad administration
 * input is refused with a message and changes nothing.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class AdministrationAuthIT extends AbstractS3IT {

    private AdminApi admin;
    private AdminApi anonymous;

    @BeforeAll
    void connectAdmin() {
        admin = new AdminApi(managementEndpoint(), http);
        anonymous = new AdminApi(managementEndpoint(), http, null);
    }

    /** Every read of the administration, Actuator's own discovery and metrics pages included. */
    static Stream<String> administrationPaths() {
        return Stream.of("/actuator", "/actuator/accesskeys", "/actuator/accesskeys/" + ACCESS_KEY,
                "/actuator/lifecycle", "/actuator/storage", "/actuator/cluster", "/actuator/metrics",
                "/actuator/info");
    }

    @ParameterizedTest
    @MethodSource("administrationPaths")
    void everyAdministrationReadWantsTheToken(String path) {
        assertUnauthorized(anonymous.get(path));
        assertUnauthorized(new AdminApi(managementEndpoint(), http, AdminApi.TOKEN + "x").get(path));
        assertUnauthorized(new AdminApi(managementEndpoint(), http, "short").get(path));

        AdminApi.Response allowed = admin.get(path);
        assertThat(allowed.status()).as("GET %s with the token: %s", path, allowed.body()).isEqualTo(200);
    }

    @Test
    void aTokenInAnotherSchemeIsRefused() {
        AdminApi.Response basic = raw("localhost:" + managementPort, "GET", "/actuator/accesskeys",
                "Basic " + AdminApi.TOKEN, null);
        assertThat(basic.status()).as(basic.body()).isEqualTo(401);
    }

    @Test
    void changesWithoutTheTokenAreRefusedAndChangeNothing() {
        int keys = keyCount();
        assertUnauthorized(anonymous.post("/actuator/accesskeys", Map.of()));
        assertUnauthorized(anonymous.post("/actuator/accesskeys", Map.of("bucket", "photos", "owner", true)));
        assertThat(keyCount()).isEqualTo(keys);

        AdminApi.Key key = admin.createKey();
        assertUnauthorized(anonymous.delete("/actuator/accesskeys/" + key.id()));
        assertUnauthorized(anonymous.post("/actuator/accesskeys/" + key.id(), Map.of("bucket", "photos", "owner", true)));
        assertThat(admin.get("/actuator/accesskeys/" + key.id()).json().get("buckets").isEmpty()).isTrue();

        String bucket = bucketWithAnObjectThatExpiresAfterADay("admin-anon");
        assertUnauthorized(anonymous.post("/actuator/lifecycle",
                Map.of("bucket", bucket, "asOf", Instant.now().plus(Duration.ofDays(3)).toString())));
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("doc.txt")).asUtf8String())
                .isEqualTo("contents");

        assertUnauthorized(anonymous.post("/actuator/storage", Map.of("action", "compact")));
        assertUnauthorized(anonymous.post("/actuator/cluster", Map.of("action", "clear")));
    }

    @Test
    void healthAndPrometheusAreOpen() {
        s3.listBuckets();
        AdminApi.Response health = anonymous.get("/actuator/health");
        assertThat(health.status()).as(health.body()).isEqualTo(200);
        assertThat(health.json().get("status").asString()).isEqualTo("UP");
        AdminApi.Response prometheus = anonymous.get("/actuator/prometheus");
        assertThat(prometheus.status()).isEqualTo(200);
        assertThat(prometheus.body()).contains("hangar_s3_requests_seconds_count");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/actuator/accesskeys", "/actuator/health", "/actuator/prometheus"})
    void aForeignHostIsRefusedEvenWithTheToken(String path) {
        AdminApi.Response foreign = raw("evil.example:" + managementPort, "GET", path, "Bearer " + AdminApi.TOKEN, null);
        assertThat(foreign.status()).as("Host evil.example: %s", foreign.body()).isEqualTo(403);
        assertThat(foreign.body()).doesNotContain("hangar_s3").doesNotContain(ACCESS_KEY);
        assertThat(foreign.json().get("error").asString()).contains("evil.example");

        for (String host : List.of("localhost:" + managementPort, "127.0.0.1:" + managementPort,
                "[::1]:" + managementPort, "LOCALHOST")) {
            AdminApi.Response local = raw(host, "GET", path, "Bearer " + AdminApi.TOKEN, null);
            assertThat(local.status()).as("Host %s: %s", host, local.body()).isEqualTo(200);
        }
    }

    @Test
    void aForeignHostCannotCreateAKey() {
        int keys = keyCount();
        AdminApi.Response rebound = raw("rebind.attacker.example", "POST", "/actuator/accesskeys",
                "Bearer " + AdminApi.TOKEN, "{\"bucket\": \"photos\", \"owner\": true}");
        assertThat(rebound.status()).as(rebound.body()).isEqualTo(403);
        AdminApi.Response noHost = raw(null, "POST", "/actuator/accesskeys", "Bearer " + AdminApi.TOKEN, "{}");
        assertThat(noHost.status()).as("no Host: %s", noHost.body()).isIn(400, 403);
        assertThat(keyCount()).isEqualTo(keys);
    }

    @Test
    void theManagementPortServesNoS3() {
        String bucket = createBucket("admin-no-s3");
        s3.putObject(request -> request.bucket(bucket).key("doc.txt"), RequestBody.fromString("contents"));
        try (S3Client management = S3Clients.sync(managementEndpoint(), ACCESS_KEY, SECRET_KEY)) {
            assertS3Status(management::listBuckets, 404);
            assertS3Status(() -> management.getObjectAsBytes(request -> request.bucket(bucket).key("doc.txt")), 404);
            assertS3Status(() -> management.putObject(request -> request.bucket(bucket).key("planted"),
                    RequestBody.fromString("planted")), 404);
        }
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("planted")), 404);
        AdminApi.Response unsigned = anonymous.get("/" + bucket + "/doc.txt");
        assertThat(unsigned.status()).isEqualTo(404);
        assertThat(unsigned.body()).doesNotContain("contents").doesNotContain("<Error>");
    }

    @Test
    void badAccessKeyInputIsRefusedAndChangesNothing() {
        String bucket = newBucketName("admin-input");
        int keys = keyCount();
        assertBadRequest(admin.post("/actuator/accesskeys", Map.of("bucket", "Not_A_Bucket", "read", true)), "bucket");
        assertBadRequest(admin.post("/actuator/accesskeys", Map.of("bucket", "ab", "read", true)), "bucket");
        assertBadRequest(admin.post("/actuator/accesskeys", Map.of("bucket", bucket, "read", "yes")), "read");
        assertBadRequest(admin.post("/actuator/accesskeys", Map.of("bucket", bucket, "write", 1)), "write");
        assertBadRequest(admin.post("/actuator/accesskeys", Map.of("bucket", bucket, "admin", true)), "admin");
        assertThat(admin.post("/actuator/accesskeys", Map.of("bucket", List.of(bucket), "read", true)).status())
                .isEqualTo(400);
        assertThat(keyCount()).isEqualTo(keys);

        AdminApi.Key key = admin.createKey();
        String path = "/actuator/accesskeys/" + key.id();
        assertBadRequest(admin.post(path, Map.of("bucket", "a..b", "read", true)), "bucket");
        assertBadRequest(admin.post(path, Map.of("bucket", bucket, "owner", "maybe")), "owner");
        assertBadRequest(admin.post(path, Map.of("bucket", bucket, "read", true, "everything", true)), "everything");
        assertThat(admin.get(path).json().get("buckets").isEmpty()).as("the key's permissions").isTrue();
        // A well-formed grant still works, also before the bucket exists.
        admin.permit(key.id(), bucket, true, false, false);
        assertThat(admin.get(path).json().get("buckets").get(bucket).get("read").asBoolean()).isTrue();
    }

    @Test
    void aLifecyclePassFarInTheFutureIsRefusedAndDeletesNothing() {
        String bucket = bucketWithAnObjectThatExpiresAfterADay("admin-future");
        assertBadRequest(admin.post("/actuator/lifecycle", Map.of("bucket", bucket, "asOf", "2999-01-01T00:00:00Z")),
                "asOf");
        // The test server allows 32 days ahead (hangar.admin.lifecycle-as-of-limit); the default is one day.
        assertBadRequest(admin.post("/actuator/lifecycle",
                Map.of("bucket", bucket, "asOf", Instant.now().plus(Duration.ofDays(40)).toString())), "asOf");
        assertBadRequest(admin.post("/actuator/lifecycle", Map.of("asOf", "2999-01-01T00:00:00Z")), "asOf");
        assertBadRequest(admin.post("/actuator/lifecycle", Map.of("bucket", "Not_A_Bucket")), "bucket");
        assertBadRequest(admin.post("/actuator/lifecycle", Map.of("bucket", bucket, "dryRun", true)), "dryRun");
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("doc.txt")).asUtf8String())
                .isEqualTo("contents");

        AdminApi.Response missing = admin.post("/actuator/lifecycle", Map.of("bucket", newBucketName("admin-none")));
        assertThat(missing.status()).as(missing.body()).isEqualTo(404);
    }

    @Test
    void badStorageAndClusterInputIsRefused() {
        assertBadRequest(admin.post("/actuator/storage", Map.of("action", "scrub", "wait", "soon")), "wait");
        assertBadRequest(admin.post("/actuator/storage", Map.of("action", "compact", "force", true)), "force");
        assertBadRequest(admin.post("/actuator/cluster", Map.of("action", "clear", "everything", true)), "everything");
        assertBadRequest(admin.post("/actuator/cluster", Map.of("action", "stage", "node", "n9", "capacity", "lots")),
                "capacity");
    }

    private String bucketWithAnObjectThatExpiresAfterADay(String prefix) {
        String bucket = createBucket(prefix);
        s3.putObject(request -> request.bucket(bucket).key("doc.txt"), RequestBody.fromString("contents"));
        s3.putBucketLifecycleConfiguration(request -> request.bucket(bucket).lifecycleConfiguration(configuration ->
                configuration.rules(LifecycleRule.builder().id("one-day").status(ExpirationStatus.ENABLED)
                        .filter(LifecycleRuleFilter.builder().prefix("").build())
                        .expiration(LifecycleExpiration.builder().days(1).build()).build())));
        return bucket;
    }

    private int keyCount() {
        AdminApi.Response list = admin.get("/actuator/accesskeys");
        assertThat(list.status()).as(list.body()).isEqualTo(200);
        return list.json().get("keys").size();
    }

    private static void assertUnauthorized(AdminApi.Response response) {
        assertThat(response.status()).as("status of %s", response.body()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                challenge -> assertThat(challenge).startsWith("Bearer"));
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        assertThat(response.json().get("error").asString()).isNotBlank();
    }

    private static void assertBadRequest(AdminApi.Response response, String mentioned) {
        assertThat(response.status()).as("status of %s", response.body()).isEqualTo(400);
        assertThat(response.json().get("error").asString()).contains(mentioned);
    }

    /**
     * One request over a raw socket, since java.net.http sets the Host header itself.
     *
     * @param host the Host header, or null to send none
     */
    private AdminApi.Response raw(@Nullable String host, String method, String path, @Nullable String authorization,
            @Nullable String json) {
        byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
        Map<String, String> headers = new LinkedHashMap<>();
        if (host != null) {
            headers.put("Host", host);
        }
        if (authorization != null) {
            headers.put("Authorization", authorization);
        }
        if (json != null) {
            headers.put("Content-Type", "application/json");
        }
        headers.put("Content-Length", Integer.toString(body.length));
        headers.put("Connection", "close");
        StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append("\r\n");
        try (Socket socket = new Socket("127.0.0.1", managementPort)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            // ISO-8859-1 keeps one char per byte, so that chunk sizes count chars.
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            int status = Integer.parseInt(response.substring(9, 12));
            int bodyStart = response.indexOf("\r\n\r\n");
            String responseHead = bodyStart < 0 ? response : response.substring(0, bodyStart);
            String responseBody = bodyStart < 0 ? "" : response.substring(bodyStart + 4);
            if (responseHead.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked")) {
                responseBody = dechunk(responseBody);
            }
            return new AdminApi.Response(status,
                    new String(responseBody.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8),
                    HttpHeaders.of(Map.of(), (name, value) -> true));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The body of a response sent with {@code Transfer-Encoding: chunked}, joined. */
    private static String dechunk(String body) {
        StringBuilder joined = new StringBuilder();
        int at = 0;
        while (at < body.length()) {
            int lineEnd = body.indexOf("\r\n", at);
            int size = Integer.parseInt(body.substring(at, lineEnd).trim(), 16);
            if (size == 0) {
                break;
            }
            joined.append(body, lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
        }
        return joined.toString();
    }
}
