package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.Digests;
import dev.hangar.distribution.support.RandomContent;
import dev.hangar.distribution.support.S3Clients;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * The packaged executable jar, as an operator runs it: {@code java -Xmx128m -jar hangar.jar} in a
 * child process configured through environment variables, streaming a 2 GiB object in and out.
 * Neither side ever holds the object: the test generates it on the fly and compares SHA-256 digests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class PackagedServerIT {

    private static final long OBJECT_SIZE = 2L * 1024 * 1024 * 1024;
    private static final String ACCESS_KEY = "HANGARPACKAGEDKEY001";
    private static final String SECRET_KEY = "hangar-packaged-secret-0123456789abcdefgh";
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

    private Path dataDir;
    private Path log;
    private Process server;
    private int port;
    private S3Client s3;

    @BeforeAll
    void startPackagedServer() throws IOException, InterruptedException {
        String jarProperty = System.getProperty("hangar.jar");
        assertThat(jarProperty).as("system property hangar.jar (set by the failsafe configuration)").isNotBlank();
        Path jar = Path.of(jarProperty);
        assertThat(jar).as("the packaged server (run `./mvnw verify`, which packages before integration tests)").isRegularFile();

        Path work = Files.createDirectories(Path.of("target", "packaged-it"));
        dataDir = Files.createTempDirectory(work.toAbsolutePath(), "data-");
        log = work.resolve("server-" + Instant.now().toEpochMilli() + ".log").toAbsolutePath();
        port = freePort();
        int managementPort = freePort();

        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "-Xmx128m", "--enable-native-access=ALL-UNNAMED",
            "-jar", jar.toAbsolutePath().toString(), "--management.server.port=" + managementPort));
        ProcessBuilder builder = new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
        Map<String, String> environment = builder.environment();
        environment.put("HANGAR_DATA_DIR", dataDir.toString());
        environment.put("HANGAR_S3_PORT", Integer.toString(port));
        environment.put("HANGAR_WEBSITE_PORT", "0");
        environment.put("HANGAR_ROOT_ACCESS_KEY", ACCESS_KEY);
        environment.put("HANGAR_ROOT_SECRET_KEY", SECRET_KEY);
        server = builder.start();

        awaitPort();
        s3 = S3Clients.sync(URI.create("http://localhost:" + port), ACCESS_KEY, SECRET_KEY);
    }

    @AfterAll
    void stopPackagedServer() throws IOException, InterruptedException {
        try {
            if (s3 != null) {
                s3.close();
            }
        } finally {
            if (server != null) {
                server.destroy();
                if (!server.waitFor(30, TimeUnit.SECONDS)) {
                    server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                }
            }
            if (dataDir != null) {
                deleteRecursively(dataDir);
            }
        }
    }

    @Test
    void streamsTwoGibibytesInAndOut() throws IOException {
        String bucket = "packaged-" + Long.toString(System.nanoTime(), 36);
        s3.createBucket(request -> request.bucket(bucket));

        // SHA-256 computed while the SDK reads the upload; a retried or re-read stream starts a fresh digest.
        RandomContent content = RandomContent.of(2024, OBJECT_SIZE);
        AtomicReference<MessageDigest> uploadDigest = new AtomicReference<>();
        RequestBody body = RequestBody.fromContentProvider(() -> {
            MessageDigest digest = Digests.sha256();
            uploadDigest.set(digest);
            return new DigestInputStream(content.newStream(), digest);
        }, OBJECT_SIZE, "application/octet-stream");

        PutObjectResponse put = assertAliveWhile(() -> s3.putObject(request -> request.bucket(bucket).key("two-gib"), body));
        String uploaded = Digests.hex(uploadDigest.get().digest());
        assertThat(put.eTag()).matches("\"[0-9a-f]{32}\"");

        assertThat(s3.headObject(request -> request.bucket(bucket).key("two-gib")).contentLength()).isEqualTo(OBJECT_SIZE);

        Digests.Summary downloaded = assertAliveWhile(() -> {
            try (ResponseInputStream<GetObjectResponse> stream = s3.getObject(request -> request.bucket(bucket).key("two-gib"))) {
                assertThat(stream.response().contentLength()).isEqualTo(OBJECT_SIZE);
                return Digests.summarize(stream);
            }
        });
        assertThat(downloaded.length()).isEqualTo(OBJECT_SIZE);
        assertThat(downloaded.sha256Hex()).isEqualTo(uploaded);

        s3.deleteObject(request -> request.bucket(bucket).key("two-gib"));
        s3.deleteBucket(request -> request.bucket(bucket));
    }

    private interface IoSupplier<T> {
        T get() throws IOException;
    }

    /** Runs the call; if it fails, the failure says whether the server died and shows its output. */
    private <T> T assertAliveWhile(IoSupplier<T> call) throws IOException {
        try {
            return call.get();
        } catch (RuntimeException | IOException | AssertionError e) {
            throw new AssertionError("request failed; server " + (server.isAlive() ? "still running" : "exited with " + server.exitValue())
                + "\n" + serverOutput(), e);
        }
    }

    private void awaitPort() throws InterruptedException {
        Instant deadline = Instant.now().plus(STARTUP_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!server.isAlive()) {
                throw new AssertionError("the packaged server exited with " + server.exitValue() + " before listening\n" + serverOutput());
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                Thread.sleep(250);
            }
        }
        throw new AssertionError("the packaged server did not listen on port " + port + " within " + STARTUP_TIMEOUT + "\n" + serverOutput());
    }

    private String serverOutput() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            List<String> tail = lines.subList(Math.max(0, lines.size() - 200), lines.size());
            return "---- server output (" + log + ", last " + tail.size() + " lines) ----\n" + String.join("\n", tail);
        } catch (IOException e) {
            return "(no server output: " + e + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
