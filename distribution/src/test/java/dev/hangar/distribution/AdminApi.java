package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.PackagedServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The administration endpoints of the management port, as an operator calls them: JSON over plain HTTP to
 * {@code /actuator/accesskeys} and {@code /actuator/lifecycle}, with the administration token as a bearer
 * token.
 */
final class AdminApi {
    /** The administration token of the test servers ({@code hangar.admin.token}): AbstractS3IT, DedicatedServer. */
    static final String TOKEN = "hangar-it-admin-token-0123456789abcdef";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final URI management;
    private final HttpClient http;
    private final @Nullable String token;

    /** Sends {@link #TOKEN}. */
    AdminApi(URI management, HttpClient http) {
        this(management, http, TOKEN);
    }

    /** @param token the bearer token to send, or null to send none */
    AdminApi(URI management, HttpClient http, @Nullable String token) {
        this.management = management;
        this.http = http;
        this.token = token;
    }

    /**
     * The administration of a packaged server, once its management port answers: it opens a little after the S3
     * port, which is what {@link PackagedServer#start} waits for.
     */
    static AdminApi awaitManagement(PackagedServer server, HttpClient http, @Nullable String token, Duration startup)
            throws InterruptedException {
        AdminApi admin = new AdminApi(URI.create("http://localhost:" + server.managementPort()), http, token);
        Instant deadline = Instant.now().plus(startup);
        while (true) {
            String problem;
            try {
                Response health = admin.get("/actuator/health");
                if (health.status() == 200) {
                    return admin;
                }
                problem = health.status() + " " + health.body();
            } catch (RuntimeException notYet) {
                problem = notYet.toString();
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("the management port did not answer: " + problem + "\n" + server.logTail(100));
            }
            Thread.sleep(200);
        }
    }

    /** An answer: its status, its body as text and, when there is one, as JSON. */
    record Response(int status, String body, HttpHeaders headers) {
        JsonNode json() {
            return JSON.readTree(body);
        }
    }

    /** A key just created. */
    record Key(String id, String secret) {}

    Response get(String path) {
        return send(HttpRequest.newBuilder(management.resolve(path)).GET());
    }

    Response post(String path, Map<String, ?> body) {
        return send(HttpRequest.newBuilder(management.resolve(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))));
    }

    Response delete(String path) {
        return send(HttpRequest.newBuilder(management.resolve(path)).DELETE());
    }

    /** Creates a key without any bucket permission. */
    Key createKey() {
        Response created = post("/actuator/accesskeys", Map.of());
        assertThat(created.status()).as("create key: %s", created.body()).isEqualTo(200);
        JsonNode json = created.json();
        return new Key(json.get("id").asString(), json.get("secret").asString());
    }

    /** Sets what a key may do in a bucket. */
    void permit(String keyId, String bucket, boolean read, boolean write, boolean owner) {
        Response permitted = post("/actuator/accesskeys/" + keyId,
                Map.of("bucket", bucket, "read", read, "write", write, "owner", owner));
        assertThat(permitted.status()).as("permit: %s", permitted.body()).isEqualTo(200);
    }

    /** Creates a key without any bucket permission that may create buckets. */
    Key createBucketCreator() {
        Response created = post("/actuator/accesskeys", Map.of("createBuckets", true));
        assertThat(created.status()).as("create key: %s", created.body()).isEqualTo(200);
        assertThat(created.json().get("createBuckets").asBoolean()).as("createBuckets of %s", created.body()).isTrue();
        JsonNode json = created.json();
        return new Key(json.get("id").asString(), json.get("secret").asString());
    }

    /** Sets whether a key may create buckets. */
    void allowBucketCreation(String keyId, boolean allowed) {
        Response permitted = post("/actuator/accesskeys/" + keyId, Map.of("createBuckets", allowed));
        assertThat(permitted.status()).as("createBuckets: %s", permitted.body()).isEqualTo(200);
    }

    /** Runs a lifecycle pass over one bucket, now or as of another instant; returns how many actions it took. */
    long runLifecycle(String bucket, @Nullable Instant asOf) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("bucket", bucket);
        if (asOf != null) {
            body.put("asOf", asOf.toString());
        }
        Response pass = post("/actuator/lifecycle", body);
        assertThat(pass.status()).as("lifecycle pass: %s", pass.body()).isEqualTo(200);
        return pass.json().get("actions").asLong();
    }

    private Response send(HttpRequest.Builder request) {
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            HttpResponse<String> response = http.send(request.build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Response(response.statusCode(), response.body(), response.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
