package dev.hangar.distribution;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.AbstractBlockStoreContractTest;
import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.BlockStores;
import dev.hangar.blockstore.NoSuchBlockException;
import dev.hangar.blockstore.s3.S3BlockStoreConfig;
import dev.hangar.distribution.support.S3Clients;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.http.client.ReactorResourceFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The remote S3 backend against the whole block-store contract, its remote being a second Hangar
 * server that this class starts in-process (apart from the one {@link AbstractS3IT} shares): once
 * for the class, on random ports, in a temporary folder. Every test gets a key prefix of its own in
 * one bucket, named after its temporary folder, so that a reopened store finds its blocks again.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RemoteS3BlockStoreIT extends AbstractBlockStoreContractTest {
    private static final String ACCESS_KEY = "HANGARREMOTEROOTKEY1";
    private static final String SECRET_KEY = "hangar-remote-root-secret-0123456789abcdef";
    private static final String REGION = S3Clients.REGION.id();
    private static final String BUCKET = "remote-blocks";

    @TempDir
    private static Path serverDirectory;

    private static ConfigurableApplicationContext server;
    private static URI endpoint;
    private static S3Client client;

    @BeforeAll
    static void startRemoteServer() {
        // Command-line arguments, not default properties: application.yml derives server.port and
        // management.server.port from hangar.* keys, and would override defaults.
        server = startServer(
                "--hangar.data-dir=" + serverDirectory.resolve("data"),
                "--hangar.root-access-key=" + ACCESS_KEY,
                "--hangar.root-secret-key=" + SECRET_KEY,
                "--hangar.s3.region=" + REGION,
                "--hangar.s3.port=0",
                "--server.port=0",
                "--hangar.management.port=0",
                "--management.server.port=0",
                "--hangar.website.port=0",
                "--hangar.storage.sync=none");
        int port = ((WebServerApplicationContext) server).getWebServer().getPort();
        endpoint = URI.create("http://localhost:" + port);
        client = S3Clients.sync(endpoint, ACCESS_KEY, SECRET_KEY);
        client.createBucket(request -> request.bucket(BUCKET));
    }

    @AfterAll
    static void stopRemoteServer() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected BlockStore createStore(Path tempDir) {
        return BlockStores.s3(config(prefixOf(tempDir), SECRET_KEY));
    }

    @Test
    void storesEachBlockAsAnObjectUnderThePrefixAndItsFirstDigits() throws IOException {
        byte[] content = randomBytes(5000);
        BlockId id = write(content);
        String prefix = prefixOf(tempDir());

        var listed = client.listObjectsV2(request -> request.bucket(BUCKET).prefix(prefix)).contents();

        assertThat(listed).extracting(S3Object::key)
                .containsExactly(prefix + id.value().substring(0, 2) + "/" + id.value());
        assertThat(listed).extracting(S3Object::size).containsExactly((long) content.length);
    }

    @Test
    void blocksSurviveAReopen() throws IOException {
        byte[] content = randomBytes(300_000);
        BlockId id = write(content);

        reopenStore();

        assertThat(readAll(id, 0, content.length)).isEqualTo(content);
    }

    @Test
    void closingAReadEarlyLeavesTheStoreUsable() throws IOException {
        byte[] content = randomBytes(1024 * 1024);
        BlockId id = write(content);

        for (int attempt = 0; attempt < 20; attempt++) {
            try (InputStream stream = store().read(id, 0, content.length)) {
                assertThat(stream.read()).isEqualTo(Byte.toUnsignedInt(content[0]));
            }
        }

        assertThat(readAll(id, 1000, 10)).isEqualTo(Arrays.copyOfRange(content, 1000, 1010));
    }

    @Test
    void refusedCredentialsFailWithAnIOExceptionThatIsNotAMissingBlock() throws IOException {
        BlockId id = write(randomBytes(10));
        try (BlockStore refused = BlockStores.s3(config(prefixOf(tempDir()), "not-the-secret-key"))) {
            assertThatThrownBy(() -> refused.write(BlockId.random(), new ByteArrayInputStream(randomBytes(10))))
                    .isInstanceOf(IOException.class)
                    .isNotInstanceOf(NoSuchBlockException.class);
            assertThatThrownBy(() -> refused.read(id, 0, 10))
                    .isInstanceOf(IOException.class)
                    .isNotInstanceOf(NoSuchBlockException.class);
            assertThatThrownBy(() -> refused.exists(id)).isInstanceOf(IOException.class);
        }
    }

    /** The wiring: a server configured with {@code hangar.storage.backend=s3} keeps its chunks remotely. */
    @Test
    void aServerWithTheS3BackendKeepsObjectChunksInTheRemoteBucket() throws InterruptedException {
        String prefix = prefixOf(tempDir()) + "server/";
        byte[] content = randomBytes(2 * 1024 * 1024 + 5);
        try (ConfigurableApplicationContext fronting = startServer(
                        "--hangar.data-dir=" + tempDir().resolve("fronting"),
                        "--hangar.root-access-key=" + ACCESS_KEY,
                        "--hangar.root-secret-key=" + SECRET_KEY,
                        "--hangar.s3.region=" + REGION,
                        "--hangar.s3.port=0",
                        "--server.port=0",
                        "--hangar.management.port=0",
                        "--management.server.port=0",
                        "--hangar.website.port=0",
                        "--hangar.storage.backend=s3",
                        "--hangar.storage.s3.endpoint=" + endpoint,
                        "--hangar.storage.s3.region=" + REGION,
                        "--hangar.storage.s3.bucket=" + BUCKET,
                        "--hangar.storage.s3.prefix=" + prefix,
                        "--hangar.storage.s3.access-key=" + ACCESS_KEY,
                        "--hangar.storage.s3.secret-key=" + SECRET_KEY,
                        "--hangar.storage.s3.path-style=true");
                S3Client front = S3Clients.sync(
                        URI.create("http://localhost:" + ((WebServerApplicationContext) fronting).getWebServer().getPort()),
                        ACCESS_KEY, SECRET_KEY)) {
            front.createBucket(request -> request.bucket("photos"));

            front.putObject(request -> request.bucket("photos").key("large"), RequestBody.fromBytes(content));

            assertThat(front.getObjectAsBytes(request -> request.bucket("photos").key("large")).asByteArray())
                    .isEqualTo(content);
            // Three chunks of the default 1 MiB chunk size, each an object of the remote bucket.
            assertThat(remoteKeys(prefix)).hasSize(3).allMatch(key -> key.matches(prefix + "[0-9a-f]{2}/[0-9a-f]{32}"));

            front.deleteObject(request -> request.bucket("photos").key("large"));

            Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
            while (!remoteKeys(prefix).isEmpty() && Instant.now().isBefore(deadline)) {
                Thread.sleep(100);
            }
            assertThat(remoteKeys(prefix)).as("chunks left in the remote bucket after the delete").isEmpty();
        }
    }

    /**
     * Starts a Hangar server in this JVM on its own Reactor Netty event loops: closing a server on the
     * global ones would stop every other server they carry, such as the one {@link AbstractS3IT}
     * keeps for the whole failsafe run.
     */
    private static ConfigurableApplicationContext startServer(String... arguments) {
        return new SpringApplicationBuilder(HangarApplication.class)
                .initializers(context -> ((GenericApplicationContext) context).registerBean(
                        ReactorResourceFactory.class, () -> {
                            ReactorResourceFactory resources = new ReactorResourceFactory();
                            resources.setUseGlobalResources(false);
                            // Stopped servers take no more tasks: Reactor's 2 s quiet period would be paid by every stop.
                            resources.setShutdownQuietPeriod(java.time.Duration.ZERO);
                            return resources;
                        }))
                .run(arguments);
    }

    private static List<String> remoteKeys(String prefix) {
        return client.listObjectsV2(request -> request.bucket(BUCKET).prefix(prefix)).contents().stream()
                .map(S3Object::key)
                .toList();
    }

    private static S3BlockStoreConfig config(String prefix, String secretKey) {
        return new S3BlockStoreConfig(endpoint, REGION, BUCKET, prefix, ACCESS_KEY, secretKey, true);
    }

    /** One prefix per test, the same for a store reopened on the same folder. */
    private static String prefixOf(Path tempDir) {
        return "contract/" + tempDir.getFileName() + "/";
    }
}
