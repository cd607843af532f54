package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.BotocoreSigner;
import dev.hangar.distribution.support.FormBody;
import dev.hangar.distribution.support.PackagedServer;
import dev.hangar.distribution.support.RawS3;
import dev.hangar.distribution.support.S3Clients;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code HANGAR_S3_SIGNATURE_V2=false} on the packaged jar: every Signature Version 2 form (header, presigned URL,
 * browser-upload form), signed correctly by botocore, is refused with S3's answer in its Version-4-only regions,
 * {@code 400 InvalidRequest}, and stores nothing; Version 4 works as before.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SignatureV2SwitchIT {
    private static final String ACCESS_KEY = "HANGARV2SWITCHKEY001";
    private static final String SECRET_KEY = "hangar-v2-switch-secret-0123456789abcdefg";

    private Path dataDir;
    private PackagedServer server;
    private final HttpClient http = RawS3.newHttpClient();

    @BeforeEach
    void startWithVersion2Off() throws IOException, InterruptedException {
        Path work = Files.createDirectories(Path.of("target", "sigv2-switch-it"));
        dataDir = Files.createTempDirectory(work.toAbsolutePath(), "data-");
        server = PackagedServer.start(dataDir, "128m", Map.of("HANGAR_ROOT_ACCESS_KEY", ACCESS_KEY,
            "HANGAR_ROOT_SECRET_KEY", SECRET_KEY, "HANGAR_S3_SIGNATURE_V2", "false"), "sigv2-off");
    }

    @AfterEach
    void stop() throws IOException, InterruptedException {
        PackagedServer.stopAndDelete(server, dataDir);
    }

    @Test
    void everyVersion2FormIsInvalidRequestAndVersion4Works() {
        BotocoreSigner botocore = BotocoreSigner.forKey(ACCESS_KEY, SECRET_KEY);
        RawS3 raw = new RawS3(server.endpoint(), "us-east-1", ACCESS_KEY, SECRET_KEY, http);
        String bucket = "switched";
        try (S3Client s3 = S3Clients.sync(server.endpoint(), ACCESS_KEY, SECRET_KEY)) {
            s3.createBucket(request -> request.bucket(bucket));
            s3.putObject(request -> request.bucket(bucket).key("doc"), RequestBody.fromString("version 4"));
            String url = server.endpoint() + "/" + bucket + "/doc";

            HttpRequest.Builder header = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(1));
            botocore.signHeader("PUT", url, Map.of()).forEach(header::header);
            assertRefused(raw.send(header.PUT(HttpRequest.BodyPublishers.ofString("version 2")).build()));

            assertRefused(raw.send(HttpRequest.newBuilder(URI.create(botocore.presign("GET", url, Map.of(), 300)))
                .timeout(Duration.ofMinutes(1)).GET().build()));

            FormBody form = FormBody.of(botocore.presignPost(server.endpoint().toString(), bucket, "doc", Map.of(),
                List.of(), 300), "doc.txt", "text/plain", new byte[] {1, 2, 3});
            assertRefused(raw.send(HttpRequest.newBuilder(URI.create(server.endpoint() + "/" + bucket))
                .timeout(Duration.ofMinutes(1)).header("Content-Type", form.contentType())
                .POST(HttpRequest.BodyPublishers.ofByteArray(form.bytes())).build()));

            assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("doc")).asUtf8String())
                .isEqualTo("version 4");
        }
    }

    private static void assertRefused(RawS3.Response response) {
        assertThat(response.status()).as("%s", response).isEqualTo(400);
        assertThat(response.errorCode()).as("%s", response).contains("InvalidRequest");
        assertThat(response.bodyText()).contains("AWS4-HMAC-SHA256");
    }
}
