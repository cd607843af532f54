package dev.hangar.distribution;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.hangar.distribution.support.RawS3;
import dev.hangar.distribution.support.RoundRobinNodes;
import dev.hangar.distribution.support.S3Clients;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.client.builder.SdkClientBuilder;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Starts the real server once for every integration test class: all subclasses share this exact
 * configuration (no annotations or properties of their own), so Spring's test-context cache keeps
 * one server, on one RocksDB in one temp folder, for the whole failsafe run. Each test class works in
 * buckets of its own, named by {@link #newBucketName(String)}.
 *
 * <p>With the system property {@value SuiteCluster#NODES_PROPERTY} set to N &gt; 1 (the failsafe
 * executions {@code cluster-3} and {@code cluster-5}), that server is one node of an N-node cluster
 * on loopback, replication factor 3 in {@code consistent} mode, whose other nodes run in this JVM too.
 * Each test's requests then go to every node in turn ({@link RoundRobinNodes}): the SDK clients point
 * each request at the next node before they resolve its endpoint and sign it, and {@link #endpoint()}, {@link #nextPort()} and
 * {@link #raw} give the next node on each call. So a bucket created through one node is configured
 * through the next and written and read through the others, as a client behind a load balancer
 * would. A class that must talk to one node only says so ({@link #usesTheServersAdministration()});
 * the administration endpoints stay those of the Spring test server.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@SpringBootTest(classes = HangarApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractS3IT {

    protected static final String ACCESS_KEY = "HANGARITROOTKEY00001";
    protected static final String SECRET_KEY = "hangar-it-root-secret-0123456789abcdefghij";
    protected static final String REGION = S3Clients.REGION.id();
    protected static final String DOMAIN = "s3.localhost";
    /** The base domain of the static website listener: a bucket's site is {@code bucket.website.localhost}. */
    protected static final String WEBSITE_DOMAIN = "website.localhost";
    protected static final int INLINE_THRESHOLD = 3072;
    protected static final int CHUNK_SIZE = 1024 * 1024;
    protected static final int MIB = 1024 * 1024;

    private static final Path DATA_DIR = createDataDir();
    /** The key service's master key (SSE-S3), outside the data folder as Hangar requires; the same on every node. */
    static final Path MASTER_KEY_FILE = createMasterKeyFile();
    // By the endpoint they talk to: "spread" for the clients that go to every node in turn.
    private static final Map<String, Clients> CLIENTS = new ConcurrentHashMap<>();
    private static @Nullable RoundRobinNodes everyNode;
    private static final AtomicInteger BUCKET_COUNTER = new AtomicInteger();
    private static final String RUN_ID = randomSuffix(5);

    /** The S3 port of the Spring test server; in a cluster, node n1. See {@link #nextPort()}. */
    @LocalServerPort
    protected int port;

    // The nodes this class's requests go to in turn: null when it talks to {@link #port} only.
    private @Nullable RoundRobinNodes nodes;

    @LocalManagementPort
    protected int managementPort;

    @Autowired
    private WebsiteServer websiteServer;

    /** Sync client (Apache HTTP), path-style, the SDK's default integrity checksums. */
    protected S3Client s3;

    /** Async client (Netty NIO), path-style, the SDK's default integrity checksums. */
    protected S3AsyncClient s3Async;

    /** Sync client that sends and checks checksums only where an operation requires them. */
    protected S3Client s3WhenRequired;

    protected HttpClient http;

    protected RawS3 raw;

    @Autowired
    private dev.hangar.cluster.ClusterNode node;

    @DynamicPropertySource
    static void hangarProperties(DynamicPropertyRegistry registry) {
        SuiteCluster.properties(DATA_DIR).forEach((key, value) -> registry.add(key, () -> value));
        registry.add("hangar.data-dir", DATA_DIR::toString);
        registry.add("hangar.root-access-key", () -> ACCESS_KEY);
        registry.add("hangar.root-secret-key", () -> SECRET_KEY);
        registry.add("hangar.s3.port", () -> "0");
        registry.add("hangar.s3.bind-address", () -> "127.0.0.1");
        registry.add("hangar.s3.region", () -> REGION);
        registry.add("hangar.s3.domain", () -> DOMAIN);
        // The suite talks plain HTTP; SSE-C over TLS and its refusal over HTTP are S3TlsIT's.
        registry.add("hangar.s3.customer-keys-over-http", () -> "true");
        registry.add("hangar.encryption.master-key-file", MASTER_KEY_FILE::toString);
        registry.add("management.server.port", () -> "0");
        registry.add("hangar.website.port", () -> "0");
        registry.add("hangar.website.domain", () -> WEBSITE_DOMAIN);
        // Administration: a known token, and lifecycle passes up to 32 days ahead (LifecycleIT looks 30 ahead).
        registry.add("hangar.admin.token", () -> AdminApi.TOKEN);
        registry.add("hangar.admin.lifecycle-as-of-limit", () -> "32d");
    }

    @BeforeAll
    void connectClients() {
        Clients clients;
        if (SuiteCluster.isOn()) {
            SuiteCluster.awaitFormed(node);
        }
        if (SuiteCluster.isOn() && !usesTheServersAdministration()) {
            nodes = everyNode(port);
            clients = CLIENTS.computeIfAbsent("spread", name -> new Clients(URI.create("http://localhost:" + port), nodes));
        } else {
            clients = CLIENTS.computeIfAbsent("localhost:" + port, name -> new Clients(URI.create("http://" + name), null));
        }
        s3 = clients.sync;
        s3Async = clients.async;
        s3WhenRequired = clients.whenRequired;
        http = clients.http;
        raw = new RawS3(this::endpoint, REGION, ACCESS_KEY, SECRET_KEY, http);
    }

    // One rotation for the whole run, shared by every class's clients: n1 (the Spring test server) and its peers.
    private static synchronized RoundRobinNodes everyNode(int springServerPort) {
        if (everyNode == null) {
            List<Integer> ports = new ArrayList<>(List.of(springServerPort));
            ports.addAll(SuiteCluster.peerPorts());
            everyNode = new RoundRobinNodes(ports);
        }
        return everyNode;
    }

    /**
     * Whether the class must talk S3 to the server whose administration, metrics or website listener
     * it uses ({@link #managementEndpoint()}, {@link #websitePort()}): in a cluster, its requests then
     * all go to the Spring test server rather than to every node in turn. Settings changed there
     * (access keys, bucket configurations) apply on every node at once, so only what one node alone
     * sees needs it: its own request metrics, for instance.
     */
    protected boolean usesTheServersAdministration() {
        return false;
    }

    /**
     * A client whose requests all go to one node, the Spring test server, whatever this class's others
     * do: for what a leaderless cluster guarantees only through one coordinator. Say why where it is
     * used.
     */
    protected S3Client s3OnOneNode() {
        return CLIENTS.computeIfAbsent("localhost:" + port, name -> new Clients(URI.create("http://" + name), null)).sync;
    }

    /**
     * The S3 port of the node that takes the next request: in a cluster, each node in turn; else the
     * server's. For requests a test sends over its own sockets.
     */
    protected int nextPort() {
        return nodes == null ? port : nodes.nextPort();
    }

    /** {@code http://localhost:port} of the node that takes the next request (see {@link #nextPort()}). */
    protected URI endpoint() {
        return URI.create("http://localhost:" + nextPort());
    }

    /**
     * The base endpoint for virtual-host-style addressing of the node that takes the next request:
     * buckets live at {@code bucket.s3.localhost}.
     */
    protected URI virtualHostEndpoint() {
        return URI.create("http://" + DOMAIN + ":" + nextPort());
    }

    /**
     * An SDK client for another access key, path-style, whose requests go where this class's go: to
     * every node in turn in a cluster. The caller closes it.
     */
    protected S3Client clientFor(String accessKey, String secretKey) {
        return clientFor(URI.create("http://localhost:" + port), accessKey, secretKey, true, builder -> {
        });
    }

    /** As {@link #clientFor(String, String)}, with this endpoint's host (virtual-host style) and customizations. */
    protected S3Client clientFor(URI endpoint, String accessKey, String secretKey, boolean pathStyle,
            Consumer<S3ClientBuilder> customizer) {
        return S3Clients.sync(endpoint, accessKey, secretKey, pathStyle, builder -> {
            customizer.accept(builder);
            spread(builder);
        });
    }

    /**
     * Makes a client built for this class's server spread its requests as this class's clients do: the
     * last step of its builder's customization (an override configuration set after it replaces it).
     */
    protected void spread(SdkClientBuilder<?, ?> builder) {
        spread(builder, nodes);
    }

    private static void spread(SdkClientBuilder<?, ?> builder, @Nullable RoundRobinNodes nodes) {
        if (nodes != null) {
            builder.overrideConfiguration(builder.overrideConfiguration().toBuilder().addExecutionInterceptor(nodes).build());
        }
    }

    /** The port of the static website listener. */
    protected int websitePort() {
        return websiteServer.port();
    }

    protected URI managementEndpoint() {
        return URI.create("http://localhost:" + managementPort);
    }

    /** A valid bucket name, unique in this run: {@code it-<prefix>-<run>-<n>}. */
    protected static String newBucketName(String prefix) {
        String name = "it-" + prefix.toLowerCase(Locale.ROOT) + "-" + RUN_ID + "-" + BUCKET_COUNTER.incrementAndGet();
        if (name.length() > 63) {
            throw new IllegalArgumentException("bucket prefix too long: " + prefix);
        }
        return name;
    }

    protected String createBucket(String prefix) {
        String bucket = newBucketName(prefix);
        s3.createBucket(request -> request.bucket(bucket));
        return bucket;
    }

    /**
     * Asserts that the call fails with the S3 error of the given HTTP status and error code. The call
     * runs once; an async call's {@link CompletionException} is unwrapped.
     */
    protected static S3Exception assertS3Error(ThrowingCallable call, int status, String errorCode) {
        S3Exception error = catchS3Exception(call);
        assertThat(error.statusCode()).as("HTTP status of %s", error.getMessage()).isEqualTo(status);
        assertThat(error.awsErrorDetails().errorCode()).as("error code of %s", error.getMessage()).isEqualTo(errorCode);
        return error;
    }

    /** Asserts only the status: HEAD responses carry no error document, hence no code. */
    protected static S3Exception assertS3Status(ThrowingCallable call, int status) {
        S3Exception error = catchS3Exception(call);
        assertThat(error.statusCode()).as("HTTP status of %s", error.getMessage()).isEqualTo(status);
        return error;
    }

    private static S3Exception catchS3Exception(ThrowingCallable call) {
        Throwable thrown = catchThrowable(call);
        while ((thrown instanceof CompletionException || thrown instanceof ExecutionException) && thrown.getCause() != null) {
            thrown = thrown.getCause();
        }
        assertThat(thrown).as("expected the call to fail with an S3Exception").isInstanceOf(S3Exception.class);
        return (S3Exception) thrown;
    }

    protected static String randomSuffix(int length) {
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
        SecureRandom random = new SecureRandom();
        StringBuilder result = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            result.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return result.toString();
    }

    /** The server's data folder, for tests that look at what is stored on disk. */
    protected static Path dataDir() {
        return DATA_DIR;
    }

    private static Path createMasterKeyFile() {
        try {
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            Path file = Files.createTempFile(DATA_DIR.getParent(), "master-", ".key");
            Files.writeString(file, java.util.Base64.getEncoder().encodeToString(key));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path createDataDir() {
        try {
            Path parent = Path.of("target", "it-data");
            Files.createDirectories(parent);
            return Files.createTempDirectory(parent.toAbsolutePath(), "hangar-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The clients of one server, or of every node in turn, built once and closed when the test JVM
     * exits.
     */
    private static final class Clients {

        final S3Client sync;
        final S3AsyncClient async;
        final S3Client whenRequired;
        final HttpClient http;

        Clients(URI endpoint, @Nullable RoundRobinNodes nodes) {
            sync = S3Clients.sync(endpoint, ACCESS_KEY, SECRET_KEY, true, builder -> spread(builder, nodes));
            async = S3Clients.async(endpoint, ACCESS_KEY, SECRET_KEY, builder -> spread(builder, nodes));
            whenRequired = S3Clients.sync(endpoint, ACCESS_KEY, SECRET_KEY, true, builder -> {
                spread(builder, nodes);
                builder.requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
            });
            http = RawS3.newHttpClient();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                sync.close();
                async.close();
                whenRequired.close();
            }, "close-s3-clients-" + endpoint.getAuthority()));
        }
    }
}
