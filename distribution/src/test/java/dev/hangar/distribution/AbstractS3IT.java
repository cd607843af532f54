package dev.hangar.distribution;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.hangar.distribution.support.RawS3;
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
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
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
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Starts the real server once for every integration test class: all subclasses share this exact
 * configuration (no annotations or properties of their own), so Spring's test-context cache keeps
 * one server, on one RocksDB in one temp folder, for the whole failsafe run. Each test class works in
 * buckets of its own, named by {@link #newBucketName(String)}.
 *
 * <p>With the system property {@value SuiteCluster#NODES_PROPERTY} set to N &gt; 1 (the failsafe
 * executions {@code cluster-3} and {@code cluster-5}), that server is one node of an N-node cluster
 * on loopback, replication factor 3 in {@code consistent} mode, whose other nodes run in this JVM too;
 * each test class talks S3 to one of the N nodes, picked by its name, so the suite runs against every
 * node. The administration endpoints stay those of the Spring test server.
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
    private static final Map<Integer, Clients> CLIENTS = new ConcurrentHashMap<>();
    private static final AtomicInteger BUCKET_COUNTER = new AtomicInteger();
    private static final String RUN_ID = randomSuffix(5);

    @LocalServerPort
    protected int port;

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
        registry.add("management.server.port", () -> "0");
        registry.add("hangar.website.port", () -> "0");
        registry.add("hangar.website.domain", () -> WEBSITE_DOMAIN);
        // Administration: a known token, and lifecycle passes up to 32 days ahead (LifecycleIT looks 30 ahead).
        registry.add("hangar.admin.token", () -> AdminApi.TOKEN);
        registry.add("hangar.admin.lifecycle-as-of-limit", () -> "32d");
    }

    @BeforeAll
    void connectClients() {
        if (SuiteCluster.isOn()) {
            SuiteCluster.awaitFormed(node);
        }
        if (SuiteCluster.isOn() && !usesTheServersAdministration()) {
            List<Integer> ports = new ArrayList<>(List.of(port));
            ports.addAll(SuiteCluster.peerPorts());
            int index = Math.floorMod(getClass().getName().hashCode(), ports.size());
            port = ports.get(index);
            System.out.println(getClass().getSimpleName() + " talks S3 to cluster node n" + (index + 1));
        }
        Clients clients = CLIENTS.computeIfAbsent(port, Clients::new);
        s3 = clients.sync;
        s3Async = clients.async;
        s3WhenRequired = clients.whenRequired;
        http = clients.http;
        raw = new RawS3(endpoint(), REGION, ACCESS_KEY, SECRET_KEY, http);
    }

    /**
     * Whether the class uses the administration (access keys, lifecycle runs), metrics or website
     * listener of the server it talks S3 to; in a cluster it then talks to the Spring test server, whose
     * {@link #managementEndpoint()} and {@link #websitePort()} those are. (Another node would see an
     * access key changed there only once its cache of access keys refreshes, within 2 s.)
     */
    protected boolean usesTheServersAdministration() {
        return false;
    }

    protected URI endpoint() {
        return URI.create("http://localhost:" + port);
    }

    /** The base endpoint for virtual-host-style addressing: buckets live at {@code bucket.s3.localhost}. */
    protected URI virtualHostEndpoint() {
        return URI.create("http://" + DOMAIN + ":" + port);
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

    private static Path createDataDir() {
        try {
            Path parent = Path.of("target", "it-data");
            Files.createDirectories(parent);
            return Files.createTempDirectory(parent.toAbsolutePath(), "hangar-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The clients of one server, built once and closed when the test JVM exits. */
    private static final class Clients {

        final S3Client sync;
        final S3AsyncClient async;
        final S3Client whenRequired;
        final HttpClient http;

        Clients(int port) {
            URI endpoint = URI.create("http://localhost:" + port);
            sync = S3Clients.sync(endpoint, ACCESS_KEY, SECRET_KEY);
            async = S3Clients.async(endpoint, ACCESS_KEY, SECRET_KEY, builder -> {
            });
            whenRequired = S3Clients.sync(endpoint, ACCESS_KEY, SECRET_KEY, true, builder -> builder
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED));
            http = RawS3.newHttpClient();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                sync.close();
                async.close();
                whenRequired.close();
            }, "close-s3-clients-" + port));
        }
    }
}
