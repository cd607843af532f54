package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.PackagedServer;
import dev.hangar.distribution.support.RawS3;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The administration token as an operator meets it, with the packaged jar: generated on the first start into
 * the data folder, readable by its owner only, never printed, the same after a restart; or read from a file.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class AdministrationTokenIT {
    private static final Duration MANAGEMENT_STARTUP = Duration.ofSeconds(60);
    private static final Map<String, String> ROOT_KEY = Map.of("HANGAR_ROOT_ACCESS_KEY", "HANGARTOKENITKEY0001",
            "HANGAR_ROOT_SECRET_KEY", "hangar-token-it-secret-0123456789abcdefgh");

    private final HttpClient http = RawS3.newHttpClient();

    @TempDir
    Path work;

    @Test
    void aFirstStartGeneratesAnOwnerOnlyTokenThatIsNeverPrinted() throws IOException, InterruptedException {
        Path dataDir = work.resolve("data");
        Path file = dataDir.resolve("admin-token");
        String token;
        try (PackagedServer server = PackagedServer.start(dataDir, "256m", ROOT_KEY, "token")) {
            AdminApi anonymous = awaitManagement(server, null);
            assertThat(file).isRegularFile();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            token = Files.readString(file, StandardCharsets.US_ASCII).strip();
            assertThat(token).hasSize(43);

            assertThat(anonymous.get("/actuator/accesskeys").status()).isEqualTo(401);
            assertThat(admin(server, token).get("/actuator/accesskeys").status()).isEqualTo(200);
            server.stop();
            assertThat(server.output()).contains(file.toAbsolutePath().toString()).doesNotContain(token);
        }

        try (PackagedServer again = PackagedServer.start(dataDir, "256m", ROOT_KEY, "token-again")) {
            awaitManagement(again, null);
            assertThat(Files.readString(file, StandardCharsets.US_ASCII).strip()).isEqualTo(token);
            assertThat(admin(again, token).get("/actuator/accesskeys").status()).isEqualTo(200);
            again.stop();
            assertThat(again.output()).doesNotContain(token);
        }
    }

    @Test
    void theTokenMayComeFromAFile() throws IOException, InterruptedException {
        Path dataDir = work.resolve("data-with-file");
        Path secret = work.resolve("mounted-secret");
        String token = "a-token-from-a-mounted-secret-0123456789";
        Files.writeString(secret, token + "\n", StandardCharsets.US_ASCII);
        Map<String, String> environment = new HashMap<>(ROOT_KEY);
        environment.put("HANGAR_ADMIN_TOKEN_FILE", secret.toString());
        try (PackagedServer server = PackagedServer.start(dataDir, "256m", environment, "token-file")) {
            awaitManagement(server, token);
            assertThat(admin(server, token).get("/actuator/storage").status()).isEqualTo(200);
            assertThat(admin(server, token + "0").get("/actuator/storage").status()).isEqualTo(401);
            assertThat(dataDir.resolve("admin-token")).doesNotExist();
            server.stop();
        }
    }

    private AdminApi admin(PackagedServer server, @Nullable String token) {
        return new AdminApi(URI.create("http://localhost:" + server.managementPort()), http, token);
    }

    private AdminApi awaitManagement(PackagedServer server, @Nullable String token) throws InterruptedException {
        return AdminApi.awaitManagement(server, http, token, MANAGEMENT_STARTUP);
    }
}
