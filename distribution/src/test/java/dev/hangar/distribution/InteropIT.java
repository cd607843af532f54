package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.hangar.distribution.support.PackagedServer;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The client interoperability suite ({@code interop/run.sh}): boto3, the aws cli, s3cmd, rclone, the
 * AWS SDK for JavaScript v3, MinIO's mc and s5cmd, installed from their package registries (mc and
 * s5cmd built from the Go module proxy) by {@code interop/setup.sh}, each run against the packaged jar
 * started as an operator starts it, with their default settings as well as configured. The suite
 * prints one line per step and fails on any error; versioned steps are skipped, with a notice, while
 * the server answers NotImplemented to PutBucketVersioning.
 *
 * <p>Without the clients the test fails and says how to install them, unless the system property
 * or environment variable {@code HANGAR_INTEROP=skip} is set: then it is skipped.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class InteropIT {

    private static final String ACCESS_KEY = "HANGARINTEROPKEY0001";
    private static final String SECRET_KEY = "hangar-interop-secret-0123456789abcdefgh";
    /** Below the class timeout, so that the suite is stopped and reported before JUnit gives up. */
    private static final Duration SUITE_TIMEOUT = Duration.ofMinutes(9);
    private static final String SKIP = "skip";

    private Path dataDir;
    private PackagedServer server;
    private Process suite;

    @BeforeEach
    void startPackagedServer() throws IOException, InterruptedException {
        Path repository = repositoryRoot();
        List<String> missing = missingClients(repository);
        if (!missing.isEmpty()) {
            String install = "the interop clients are not installed (missing: " + String.join(", ", missing)
                + "); install them with `bash interop/setup.sh` (a Python venv in interop/.venv with boto3, the aws cli"
                + " and s3cmd; the AWS SDK for JavaScript in interop/js/node_modules; rclone from Debian's package;"
                + " mc and s5cmd built with Go into interop/.bin),"
                + " or set HANGAR_INTEROP=skip to skip this test";
            assumeFalse(skipRequested(), install);
            throw new AssertionError(install);
        }

        Path work = Files.createDirectories(Path.of("target", "interop-it").toAbsolutePath());
        dataDir = Files.createTempDirectory(work, "data-");
        // SSE-S3 needs a master key (an environment secret here, as outside the data folder); the suite's SSE-C
        // steps talk plain HTTP, which the server refuses for customer keys unless told otherwise.
        byte[] masterKey = new byte[32];
        new java.security.SecureRandom().nextBytes(masterKey);
        server = PackagedServer.start(dataDir, "256m",
            Map.of("HANGAR_ROOT_ACCESS_KEY", ACCESS_KEY, "HANGAR_ROOT_SECRET_KEY", SECRET_KEY,
                "HANGAR_ENCRYPTION_MASTER_KEY", java.util.Base64.getEncoder().encodeToString(masterKey),
                "HANGAR_S3_CUSTOMER_KEYS_OVER_HTTP", "true"));
    }

    @AfterEach
    void stopEverything() throws IOException, InterruptedException {
        try {
            if (suite != null && suite.isAlive()) {
                stop(suite);
            }
        } finally {
            PackagedServer.stopAndDelete(server, dataDir);
        }
    }

    @Test
    void everyClientPassesTheInteropSuite() throws IOException, InterruptedException {
        Path repository = repositoryRoot();
        ProcessBuilder builder = new ProcessBuilder("bash", repository.resolve("interop/run.sh").toString(),
            "http://127.0.0.1:" + server.port(), ACCESS_KEY, SECRET_KEY)
            .directory(repository.toFile())
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        suite = builder.start();

        // Streamed to the test log as it comes; the failures and the summary are kept for the assertion.
        List<String> verdicts = Collections.synchronizedList(new ArrayList<>());
        Thread pump = Thread.ofPlatform().daemon().name("interop-output").start(() -> {
            try (BufferedReader output = new BufferedReader(
                    new InputStreamReader(suite.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = output.readLine()) != null) {
                    System.out.println("[interop] " + line);
                    if (line.startsWith("FAIL") || line.startsWith("interop:")) {
                        verdicts.add(line);
                    }
                }
            } catch (IOException e) {
                System.out.println("[interop] (output lost: " + e + ")");
            }
        });

        boolean finished = suite.waitFor(SUITE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        if (!finished) {
            stop(suite);
        }
        pump.join(Duration.ofSeconds(10));
        String report = String.join("\n", verdicts);
        // Descriptions built without String.format: the report may hold keys with '%'.
        assertThat(finished).as(() -> "the interop suite finished within " + SUITE_TIMEOUT + "\n" + report + "\n"
            + server.logTail(100)).isTrue();
        assertThat(suite.exitValue()).as(() -> "exit code of interop/run.sh (0: every step passed or was skipped)\n"
            + report + "\n" + server.logTail(100)).isZero();
    }

    /** The repository root: failsafe runs in the module directory, one level below it. */
    private static Path repositoryRoot() {
        Path root = Path.of(System.getProperty("user.dir")).toAbsolutePath().resolve("..").normalize();
        assertThat(root.resolve("interop/run.sh")).as("interop/run.sh in the repository root").isRegularFile();
        return root;
    }

    private static List<String> missingClients(Path repository) {
        List<String> missing = new ArrayList<>();
        Path venv = Optional.ofNullable(System.getenv("INTEROP_VENV")).map(Path::of)
            .orElse(repository.resolve("interop/.venv"));
        for (String tool : List.of("python", "aws", "s3cmd")) {
            if (!Files.isExecutable(venv.resolve("bin").resolve(tool))) {
                missing.add(venv.resolve("bin").resolve(tool).toString());
            }
        }
        for (String command : List.of("rclone", "node")) {
            if (onPath(command).isEmpty()) {
                missing.add(command + " on the PATH");
            }
        }
        Path javascriptSdk = repository.resolve("interop/js/node_modules/@aws-sdk/client-s3/package.json");
        if (!Files.isRegularFile(javascriptSdk)) {
            missing.add(javascriptSdk.toString());
        }
        for (String tool : List.of("mc", "s5cmd")) {
            Path built = repository.resolve("interop/.bin").resolve(tool);
            if (!Files.isExecutable(built)) {
                missing.add(built.toString());
            }
        }
        return missing;
    }

    private static Optional<Path> onPath(String command) {
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
        return Stream.of(path.split(File.pathSeparator))
            .filter(directory -> !directory.isBlank())
            .map(directory -> Path.of(directory, command))
            .filter(Files::isExecutable)
            .findFirst();
    }

    private static boolean skipRequested() {
        return SKIP.equalsIgnoreCase(System.getProperty("HANGAR_INTEROP", ""))
            || SKIP.equalsIgnoreCase(Optional.ofNullable(System.getenv("HANGAR_INTEROP")).orElse(""));
    }

    /** Ends a process and everything it started (run.sh's clients too). */
    private static void stop(Process process) throws InterruptedException {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        descendants.forEach(ProcessHandle::destroy);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }
}
