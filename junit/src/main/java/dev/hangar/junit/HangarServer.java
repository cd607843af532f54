package dev.hangar.junit;

import dev.hangar.distribution.HangarApplication;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.util.FileSystemUtils;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3BaseClientBuilder;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A Hangar server running in this JVM: the same Spring Boot application as {@code java -jar hangar.jar}, on a
 * free S3 port, a free management port, a temporary data folder (deleted on {@link #close()}) and a random root
 * key pair. {@link HangarExtension} starts and stops them for tests; this class also serves code that wants a
 * server without JUnit.
 */
public final class HangarServer implements AutoCloseable {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String KEY_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    private static final String SECRET_LETTERS = KEY_LETTERS + "abcdefghijklmnopqrstuvwxyz";

    private final ConfigurableApplicationContext context;
    private final Path dataDir;
    private final boolean deleteDataDir;
    private final URI endpoint;
    private final URI managementEndpoint;
    private final Region region;
    private final String accessKey;
    private final String secretKey;
    private final List<AutoCloseable> clients = new CopyOnWriteArrayList<>();

    private HangarServer(ConfigurableApplicationContext context, Path dataDir, boolean deleteDataDir, Region region,
            String accessKey, String secretKey) {
        this.context = context;
        this.dataDir = dataDir;
        this.deleteDataDir = deleteDataDir;
        this.region = region;
        this.accessKey = accessKey;
        this.secretKey = secretKey;
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        this.endpoint = URI.create("http://localhost:" + port);
        this.managementEndpoint = URI.create("http://localhost:" + context.getEnvironment().getProperty("local.management.port"));
    }

    /** Starts a server with the default options: blocks on disk in a temporary folder. */
    public static HangarServer start() {
        return start(HangarOptions.defaults());
    }

    public static HangarServer start(HangarOptions options) {
        Path dataDir;
        boolean temporary = options.dataDir() == null;
        try {
            dataDir = temporary ? Files.createTempDirectory("hangar-junit-") : Files.createDirectories(options.dataDir());
        } catch (IOException e) {
            throw new UncheckedIOException("could not make the server's data folder", e);
        }
        String accessKey = random(KEY_LETTERS, 20);
        String secretKey = random(SECRET_LETTERS, 40);
        // Command-line arguments, which take precedence over Hangar's defaults (they derive the ports from
        // hangar.* keys); --key=value settings of the options come last and win.
        List<String> arguments = new ArrayList<>(List.of(
                // No application.yml: the first on the class path is the project's own, made for its application.
                // Hangar's defaults come with its classes (HangarDefaults).
                "--spring.config.name=hangar-in-process",
                "--hangar.data-dir=" + dataDir,
                "--hangar.root-access-key=" + accessKey,
                "--hangar.root-secret-key=" + secretKey,
                "--hangar.s3.region=" + options.region().id(),
                "--hangar.s3.port=0",
                "--server.port=0",
                "--hangar.management.port=0",
                "--management.server.port=0",
                "--hangar.website.enabled=false",
                "--spring.jmx.enabled=false",
                "--management.jmx.metrics.export.enabled=false",
                "--logging.level.root=" + options.logLevel()));
        if (options.inMemory()) {
            arguments.add("--hangar.storage.backend=memory");
            // Nothing survives the server anyway: no fsync is worth its wait.
            arguments.add("--hangar.storage.sync=none");
        }
        for (Map.Entry<String, String> setting : options.settings().entrySet()) {
            arguments.add("--" + setting.getKey() + "=" + setting.getValue());
        }
        try {
            ConfigurableApplicationContext context = new SpringApplicationBuilder(HangarApplication.class)
                    // Its own Netty event loops: stopping one server must not stop the others' (or the test's).
                    .initializers(created -> ((GenericApplicationContext) created).registerBean(
                            ReactorResourceFactory.class, () -> {
                                ReactorResourceFactory resources = new ReactorResourceFactory();
                                resources.setUseGlobalResources(false);
                                // No quiet period for tasks that might still come: a stopped test server takes none,
                                // and Reactor's default of 2 s would be paid by every per-method test.
                                resources.setShutdownQuietPeriod(Duration.ZERO);
                                return resources;
                            }))
                    .run(arguments.toArray(String[]::new));
            return new HangarServer(context, dataDir, temporary, options.region(), accessKey, secretKey);
        } catch (RuntimeException e) {
            if (temporary) {
                deleteQuietly(dataDir, e);
            }
            throw e;
        }
    }

    /** The S3 endpoint, {@code http://localhost:<port>}; address buckets path-style. */
    public URI endpoint() {
        return endpoint;
    }

    /** The management endpoint (health, metrics, administration), {@code http://localhost:<port>}. */
    public URI managementEndpoint() {
        return managementEndpoint;
    }

    public Region region() {
        return region;
    }

    /** The root access key id, allowed everything. */
    public String accessKey() {
        return accessKey;
    }

    public String secretKey() {
        return secretKey;
    }

    /** The server's data folder: temporary unless the options named one. */
    public Path dataDir() {
        return dataDir;
    }

    /** Credentials of the root key, for clients built by the test itself. */
    public StaticCredentialsProvider credentials() {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey));
    }

    /** A new client for this server (path-style, root key); closed with the server. */
    public S3Client newClient() {
        S3Client client = configured(S3Client.builder()).build();
        clients.add(client);
        return client;
    }

    /** A new asynchronous client for this server (path-style, root key); closed with the server. */
    public S3AsyncClient newAsyncClient() {
        S3AsyncClient client = configured(S3AsyncClient.builder()).build();
        clients.add(client);
        return client;
    }

    private <B extends S3BaseClientBuilder<B, ?>> B configured(B builder) {
        return builder.endpointOverride(endpoint).region(region).credentialsProvider(credentials()).forcePathStyle(true);
    }

    /** Closes the clients it made, stops the server and deletes a temporary data folder. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (AutoCloseable client : clients) {
            try {
                client.close();
            } catch (Exception e) {
                failure = failure == null ? new IllegalStateException("closing a client failed", e) : failure;
            }
        }
        context.close();
        if (deleteDataDir) {
            try {
                deleteTree(dataDir);
            } catch (IOException e) {
                failure = failure == null ? new UncheckedIOException("deleting " + dataDir + " failed", e) : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static String random(String letters, int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(letters.charAt(RANDOM.nextInt(letters.length())));
        }
        return text.toString();
    }

    private static void deleteQuietly(Path folder, Throwable failure) {
        try {
            deleteTree(folder);
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        FileSystemUtils.deleteRecursively(root);
    }
}
