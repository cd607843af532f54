package dev.hangar.bench.aot;

import dev.hangar.bench.Folders;
import dev.hangar.bench.load.FirstAnswer;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * Trains the server's start-up cache: starts the server jar under this JVM with the flags that
 * record a cache ({@link StartupCache}), sends it {@link TrainingWorkload} for a while, stops it
 * (the JVM writes the cache as it exits), and records which JVM the cache is for, so that the
 * launcher beside the jar starts the server from it. distribution/pom.xml runs it at package, on
 * the unpacked jar.
 */
@Command(name = "train", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Trains the JVM's start-up cache of a Hangar jar (AOT cache on JDK 25+, class data sharing archive before):",
        "starts the jar under this JVM, sends it S3 requests for a while, stops it, and checks that the cache was written."})
public final class TrainCommand implements Callable<Integer> {

    /**
     * Beside the jar: the JVM the cache belongs to on the first line, then the flags that start it from the
     * cache ({@link StartupCache#useFlags}), one per line. The launcher runs that JVM with those flags.
     */
    public static final String JVM_FILE = "jvm";

    private static final Duration START_LIMIT = Duration.ofMinutes(3);
    private static final Duration STOP_LIMIT = Duration.ofMinutes(5);

    @Spec
    @Nullable CommandSpec spec;

    @Option(names = "--jar", required = true, description = "The server jar, unpacked (java -Djarmode=tools -jar hangar.jar extract).")
    Path jar = Path.of("hangar.jar");

    @Option(names = "--duration", defaultValue = "PT20S", description = "How long the workload runs (default: ${DEFAULT-VALUE}).")
    Duration duration = Duration.ofSeconds(20);

    @Option(names = "--clients", defaultValue = "8", description = "Clients sending requests at once (default: ${DEFAULT-VALUE}).")
    int clients = 8;

    @Option(names = "--log", description = "The training server's output (default: training.log beside the jar's folder).")
    @Nullable Path log;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec == null ? new PrintWriter(System.out, true) : spec.commandLine().getOut();
        Path jarFile = jar.toAbsolutePath().normalize();
        if (!Files.isRegularFile(jarFile)) {
            throw new IllegalArgumentException("no jar at " + jarFile);
        }
        Path directory = jarFile.getParent();
        Path logFile = log != null ? log.toAbsolutePath() : directory.resolveSibling("training.log");
        StartupCache cache = StartupCache.in(directory, Runtime.version().feature());
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        for (String stale : List.of(StartupCache.AOT_CACHE, StartupCache.CDS_ARCHIVE, JVM_FILE)) {
            Files.deleteIfExists(directory.resolve(stale));
        }
        Path data = Files.createTempDirectory("hangar-training");
        String accessKey = "TRAIN" + hex(8).toUpperCase(Locale.ROOT);
        String secretKey = hex(20);
        int s3Port = freePort();
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(cache.recordFlags());
        command.addAll(List.of("-jar", jarFile.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(logFile.toFile());
        builder.environment().putAll(Map.of(
            "HANGAR_DATA_DIR", data.toString(),
            "HANGAR_S3_PORT", Integer.toString(s3Port),
            "HANGAR_MANAGEMENT_PORT", Integer.toString(freePort()),
            "HANGAR_WEBSITE_PORT", Integer.toString(freePort()),
            "HANGAR_ROOT_ACCESS_KEY", accessKey,
            "HANGAR_ROOT_SECRET_KEY", secretKey));
        long started = System.nanoTime();
        Process server = builder.start();
        try {
            try (S3AsyncClient client = client(s3Port, accessKey, secretKey)) {
                FirstAnswer.await(client, server, new InetSocketAddress("127.0.0.1", s3Port), System.nanoTime() + START_LIMIT.toNanos(),
                    "see " + logFile);
                long requests = new TrainingWorkload(client, "training").run(clients, Instant.now().plus(duration));
                out.printf(Locale.ROOT, "training: %d requests in %s from %d clients%n", requests, duration, clients);
            }
            server.destroy();
            if (!server.waitFor(STOP_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("the training server did not exit within " + STOP_LIMIT + " of SIGTERM; see " + logFile);
            }
        } finally {
            server.destroyForcibly();
            Folders.deleteTree(data);
        }
        if (!Files.isRegularFile(cache.file()) || Files.size(cache.file()) == 0) {
            throw new IllegalStateException("the JVM wrote no start-up cache at " + cache.file() + "; see " + logFile);
        }
        List<String> launch = new ArrayList<>();
        launch.add(java.toString());
        launch.addAll(cache.useFlags());
        Files.write(directory.resolve(JVM_FILE), launch, StandardCharsets.UTF_8);
        out.printf(Locale.ROOT, "start-up cache: %s (%d MiB) for %s, %d s in all%n", cache.file(), Files.size(cache.file()) >> 20, java,
            TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
        return 0;
    }

    private static S3AsyncClient client(int port, String accessKey, String secretKey) {
        return S3AsyncClient.builder()
            .endpointOverride(URI.create("http://127.0.0.1:" + port))
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
            .httpClientBuilder(NettyNioAsyncHttpClient.builder().maxConcurrency(32))
            .overrideConfiguration(configuration -> configuration.apiCallTimeout(Duration.ofMinutes(1))
                .retryStrategy(strategy -> strategy.maxAttempts(1)))
            .build();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String hex(int bytes) {
        byte[] random = new byte[bytes];
        new SecureRandom().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }
}
