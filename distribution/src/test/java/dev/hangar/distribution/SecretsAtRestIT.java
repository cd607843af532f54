package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.PackagedServer;
import dev.hangar.distribution.support.RawS3;
import dev.hangar.distribution.support.S3Clients;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Access key secrets are not stored in plain text: after the packaged jar generated its root key and an
 * administrator created a second key, no file under the data folder holds either secret's bytes (the RocksDB
 * files, its logs, everything), and after a restart both keys still sign requests, their sealed secrets opened
 * with the node's master key.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SecretsAtRestIT {
    private static final Pattern SECRET_LINE = Pattern.compile("secret key: (\\S+)");
    private static final Pattern ACCESS_LINE = Pattern.compile("access key: (\\S+)");

    @Test
    void noFileOfTheDataFolderHoldsASecret() throws Exception {
        Path work = Files.createTempDirectory(Files.createDirectories(Path.of("target", "secrets-it")).toAbsolutePath(), "");
        Path data = work.resolve("data");
        String token = "secrets-it-admin-token-0123456789";
        Map<String, String> environment = Map.of("HANGAR_ADMIN_TOKEN", token);
        PackagedServer server = PackagedServer.start(data, "256m", environment, "secrets");
        String rootKey;
        String rootSecret;
        AdminApi.Key created;
        try {
            // The generated root key pair, printed once at the first start.
            String output = server.output();
            Matcher access = ACCESS_LINE.matcher(output);
            Matcher secret = SECRET_LINE.matcher(output);
            assertThat(access.find() && secret.find()).as("the generated root key in the output").isTrue();
            rootKey = access.group(1);
            rootSecret = secret.group(1);
            AdminApi admin = AdminApi.awaitManagement(server, RawS3.newHttpClient(), token, Duration.ofSeconds(60));
            created = admin.createKey();
            try (S3Client s3 = S3Clients.sync(server.endpoint(), rootKey, rootSecret)) {
                s3.createBucket(request -> request.bucket("sealed"));
                s3.putObject(request -> request.bucket("sealed").key("doc"), RequestBody.fromString("doc"));
            }
            admin.permit(created.id(), "sealed", true, false, false);
        } finally {
            server.stop();
        }

        List<Path> holding = new ArrayList<>();
        try (Stream<Path> files = Files.walk(data)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String bytes = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
                if (bytes.contains(rootSecret) || bytes.contains(created.secret())) {
                    holding.add(file);
                }
            }
        }
        assertThat(holding).as("files of the data folder that hold a secret in plain text").isEmpty();
        assertThat(data.resolve(SecretSeal.MASTER_KEY_FILE)).isRegularFile();

        PackagedServer restarted = PackagedServer.start(data, "256m", environment, "secrets-restarted");
        try (S3Client root = S3Clients.sync(restarted.endpoint(), rootKey, rootSecret);
                S3Client reader = S3Clients.sync(restarted.endpoint(), created.id(), created.secret())) {
            assertThat(root.listBuckets().buckets()).extracting(bucket -> bucket.name()).contains("sealed");
            assertThat(reader.getObjectAsBytes(request -> request.bucket("sealed").key("doc")).asUtf8String())
                .isEqualTo("doc");
        } finally {
            PackagedServer.stopAndDelete(restarted, work);
        }
    }
}
