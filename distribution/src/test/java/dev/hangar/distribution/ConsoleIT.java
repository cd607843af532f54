package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RandomContent;
import dev.hangar.distribution.support.RawHttp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * The web console's page and API over plain HTTP (its browser test is {@code ConsoleBrowserIT}): the page is
 * served without the token, with a policy that lets it run only its own scripts; its S3 API wants the
 * administration token, acts as the root key on the same store as the S3 port, streams bodies both ways, and
 * answers S3's XML errors.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ConsoleIT extends AbstractS3IT {
    private static final String S3_API = "/console/api/s3";

    /** The console's own node's objects: its management port and its S3 port are one server's. */
    @Override
    protected boolean usesTheServersAdministration() {
        return true;
    }

    @Test
    void thePageIsServedWithoutTheTokenAndRunsOnlyItsOwnScripts() throws Exception {
        HttpResponse<String> redirect = send(HttpRequest.newBuilder(console("/console")).GET(), null);
        assertThat(redirect.statusCode()).isEqualTo(308);
        assertThat(redirect.headers().firstValue("Location")).hasValue("/console/");

        HttpResponse<String> page = send(HttpRequest.newBuilder(console("/console/")).GET(), null);
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
        assertThat(page.body()).contains("<title>Hangar console</title>", "console.js");
        assertThat(page.headers().firstValue("Content-Security-Policy"))
                .hasValueSatisfying(policy -> assertThat(policy).contains("script-src 'self'", "frame-ancestors 'none'"));
        assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");

        HttpResponse<String> script = send(HttpRequest.newBuilder(console("/console/console.js")).GET(), null);
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.body()).contains("/console/api/s3");
    }

    @Test
    void theS3ApiWantsTheAdministrationToken() throws Exception {
        HttpResponse<String> none = send(HttpRequest.newBuilder(console(S3_API + "/")).GET(), null);
        assertThat(none.statusCode()).as(none.body()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(value -> assertThat(value).startsWith("Bearer"));

        HttpResponse<String> wrong = send(HttpRequest.newBuilder(console(S3_API + "/")).GET(), AdminApi.TOKEN + "x");
        assertThat(wrong.statusCode()).as(wrong.body()).isEqualTo(401);

        // A write without the token changes nothing.
        String bucket = newBucketName("console-anon");
        HttpResponse<String> create = send(HttpRequest.newBuilder(console(S3_API + "/" + bucket))
                .PUT(HttpRequest.BodyPublishers.noBody()), null);
        assertThat(create.statusCode()).isEqualTo(401);
        assertThat(s3.listBuckets().buckets()).noneMatch(b -> b.name().equals(bucket));
    }

    @Test
    void aForeignHostIsRefusedEvenWithTheToken() {
        // A page of another site whose name resolves to this machine (DNS rebinding) sends its own Host.
        RawHttp.Answer answer = RawHttp.exchange(managementPort, RawHttp.request("GET " + S3_API + "/ HTTP/1.1\r\n"
                + "Host: evil.example:" + managementPort + "\r\nAuthorization: Bearer " + AdminApi.TOKEN
                + "\r\nConnection: close\r\n\r\n", new byte[0]));
        assertThat(answer.status()).as(answer.toString()).isEqualTo(403);
        assertThat(answer.bodyText()).doesNotContain("ListAllMyBucketsResult");
    }

    @Test
    void anS3SignatureDoesNotStandInForTheToken() {
        // The root key's own SigV4 client, pointed at the console's API: refused before any S3 rule runs.
        try (var client = clientFor(URI.create(managementEndpoint() + S3_API), ACCESS_KEY, SECRET_KEY, true,
                builder -> { })) {
            assertS3Status(client::listBuckets, 401);
        }
    }

    @Test
    void turnedOffTheConsoleIsNotThere(@TempDir Path dataDir) throws Exception {
        try (DedicatedServer server = DedicatedServer.start(dataDir, "admin.console=false")) {
            URI management = server.management();
            for (String path : new String[] {"/console/", "/console/console.js", S3_API + "/"}) {
                HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(management + path))
                        .header("Authorization", "Bearer " + AdminApi.TOKEN).timeout(Duration.ofSeconds(60)).GET()
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertThat(answer.statusCode()).as("%s: %s", path, answer.body()).isEqualTo(404);
            }
        }
    }

    @Test
    void actsAsTheRootKeyOnTheStoreOfTheS3Port() throws Exception {
        String bucket = newBucketName("console");
        HttpResponse<String> create = send(HttpRequest.newBuilder(console(S3_API + "/" + bucket))
                .PUT(HttpRequest.BodyPublishers.noBody()), AdminApi.TOKEN);
        assertThat(create.statusCode()).as(create.body()).isEqualTo(200);
        assertThat(s3.listBuckets().buckets()).anyMatch(b -> b.name().equals(bucket));

        // An object larger than a chunk streams in through the console and out through the S3 port, and back.
        byte[] content = RandomContent.of(42, 3L * CHUNK_SIZE + 17).newStream().readAllBytes();
        HttpResponse<String> put = send(HttpRequest.newBuilder(console(S3_API + "/" + bucket + "/photos/a%20b.bin"))
                .header("Content-Type", "application/octet-stream")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(content)), AdminApi.TOKEN);
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        assertThat(s3.getObjectAsBytes(r -> r.bucket(bucket).key("photos/a b.bin")).asByteArray()).isEqualTo(content);

        s3.putObject(r -> r.bucket(bucket).key("notes/today.txt"), RequestBody.fromString("written through S3"));
        HttpResponse<byte[]> get = http.send(HttpRequest.newBuilder(console(S3_API + "/" + bucket + "/photos/a%20b.bin"))
                .header("Authorization", "Bearer " + AdminApi.TOKEN).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(get.statusCode()).isEqualTo(200);
        assertThat(get.body()).isEqualTo(content);

        HttpResponse<String> listing = send(HttpRequest.newBuilder(
                console(S3_API + "/" + bucket + "?list-type=2&delimiter=%2F")).GET(), AdminApi.TOKEN);
        assertThat(listing.statusCode()).isEqualTo(200);
        assertThat(listing.body()).contains("<Prefix>notes/</Prefix>", "<Prefix>photos/</Prefix>");

        HttpResponse<String> delete = send(HttpRequest.newBuilder(console(S3_API + "/" + bucket + "/notes/today.txt"))
                .DELETE(), AdminApi.TOKEN);
        assertThat(delete.statusCode()).isEqualTo(204);
        assertThat(s3.listObjectsV2(r -> r.bucket(bucket)).contents()).extracting(o -> o.key()).containsExactly("photos/a b.bin");
    }

    @Test
    void failuresAreS3Errors() throws Exception {
        HttpResponse<String> missing = send(HttpRequest.newBuilder(
                console(S3_API + "/" + newBucketName("console-none") + "?list-type=2")).GET(), AdminApi.TOKEN);
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).contains("<Code>NoSuchBucket</Code>");

        HttpResponse<String> badName = send(HttpRequest.newBuilder(console(S3_API + "/Not_A_Bucket"))
                .PUT(HttpRequest.BodyPublishers.noBody()), AdminApi.TOKEN);
        assertThat(badName.statusCode()).isEqualTo(400);
        assertThat(badName.body()).contains("<Code>InvalidBucketName</Code>");
    }

    private URI console(String path) {
        return URI.create(managementEndpoint() + path);
    }

    private HttpResponse<String> send(HttpRequest.Builder request, @Nullable String token) throws IOException, InterruptedException {
        request.timeout(Duration.ofSeconds(60));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
