package dev.hangar.distribution.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The packaged executable jar run as an operator runs it: {@code java -Xmx... -jar hangar.jar} in a
 * child process configured through environment variables, its output captured in a log file next
 * to the data folder. {@link #start} returns once the S3 port listens.
 */
public final class PackagedServer implements AutoCloseable {

    /**
     * Generous: a start takes 5 to 10 s on a quiet machine, but 45 s was seen on a 2-core machine with three
     * other servers and a build running, and the wait ends as soon as the port listens.
     */
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(150);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final int port;
    private final int managementPort;
    private final Path log;

    private PackagedServer(Process process, int port, int managementPort, Path log) {
        this.process = process;
        this.port = port;
        this.managementPort = managementPort;
        this.log = log;
    }

    /**
     * Starts the jar the failsafe configuration names ({@code hangar.jar}) on a free S3 port, a free
     * management port and no website port.
     *
     * @param dataDir the data folder; the log file goes into its parent
     * @param heap the maximum heap, as {@code -Xmx} takes it ({@code 256m})
     * @param environment variables added to the server's, such as {@code HANGAR_ROOT_ACCESS_KEY}
     */
    public static PackagedServer start(Path dataDir, String heap, Map<String, String> environment)
            throws IOException, InterruptedException {
        return start(dataDir, heap, environment, "");
    }

    /** As {@link #start(Path, String, Map)}, with a label in the log file's name. */
    public static PackagedServer start(Path dataDir, String heap, Map<String, String> environment, String label)
            throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        return launch(List.of(java, "-Xmx" + heap, "--enable-native-access=ALL-UNNAMED", "-jar", jar().toString()), dataDir, environment,
            label);
    }

    /**
     * Starts the runnable folder's launcher as the README does ({@code hangar.launcher}: the unpacked jar
     * with the start-up cache trained at package), with {@code javaOptions} as its {@code JAVA_OPTS}.
     */
    public static PackagedServer startLauncher(Path dataDir, String javaOptions, Map<String, String> environment)
            throws IOException, InterruptedException {
        Map<String, String> variables = new HashMap<>(environment);
        variables.put("JAVA_OPTS", javaOptions);
        return launch(List.of(launcher().toString()), dataDir, variables, "launcher");
    }

    /** The runnable folder the build lays out at package: launcher, unpacked jar, start-up cache. */
    public static Path launcher() {
        String property = System.getProperty("hangar.launcher");
        assertThat(property).as("system property hangar.launcher (set by the failsafe configuration)").isNotBlank();
        Path launcher = Path.of(property).toAbsolutePath();
        assertThat(launcher).as("the launcher (run `./mvnw verify`, which packages before integration tests)").isExecutable();
        return launcher;
    }

    private static PackagedServer launch(List<String> command, Path dataDir, Map<String, String> environment, String label)
            throws IOException, InterruptedException {
        Path data = dataDir.toAbsolutePath();
        Path log = data.getParent().resolve("server-" + Instant.now().toEpochMilli()
            + (label.isEmpty() ? "" : "-" + label) + ".log");
        int port = freePort();
        int managementPort = freePort();
        List<String> arguments = new ArrayList<>(command);
        arguments.add("--management.server.port=" + managementPort);
        ProcessBuilder builder = new ProcessBuilder(arguments)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
        Map<String, String> variables = builder.environment();
        variables.put("HANGAR_DATA_DIR", data.toString());
        variables.put("HANGAR_S3_PORT", Integer.toString(port));
        variables.put("HANGAR_WEBSITE_PORT", "0");
        variables.putAll(environment);
        PackagedServer server = new PackagedServer(builder.start(), port, managementPort, log);
        try {
            server.awaitPort();
        } catch (RuntimeException | Error | InterruptedException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** The packaged jar the failsafe configuration names ({@code hangar.jar}). */
    public static Path jar() {
        String jarProperty = System.getProperty("hangar.jar");
        assertThat(jarProperty).as("system property hangar.jar (set by the failsafe configuration)").isNotBlank();
        Path jar = Path.of(jarProperty).toAbsolutePath();
        assertThat(jar).as("the packaged server (run `./mvnw verify`, which packages before integration tests)").isRegularFile();
        return jar;
    }

    public int port() {
        return port;
    }

    /** The server's process id, to attach to its JVM. */
    public long pid() {
        return process.pid();
    }

    /** The S3 endpoint, {@code http://localhost:port}. */
    public URI endpoint() {
        return URI.create("http://localhost:" + port);
    }

    /** The management port (Actuator); it may open a little after the S3 port. */
    public int managementPort() {
        return managementPort;
    }

    /** Everything the server printed so far. */
    public String output() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    /** Whether the server runs, or how it exited, followed by the last lines of its output. */
    public String logTail(int lines) {
        String state = process.isAlive() ? "running" : "exited with " + process.exitValue();
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            List<String> tail = all.subList(Math.max(0, all.size() - lines), all.size());
            return "---- server " + state + " (" + log + ", last " + tail.size() + " lines) ----\n" + String.join("\n", tail);
        } catch (IOException | UncheckedIOException e) {
            return "(server " + state + ", no output from " + log + ": " + e + ")";
        }
    }

    /** SIGKILL on Linux: no shutdown hook, no flush, no close. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            throw new AssertionError("the server survived SIGKILL for " + EXIT_TIMEOUT);
        }
    }

    /** Stops a server, if one was started, then deletes its data folder, if one was made: a test's clean-up. */
    public static void stopAndDelete(PackagedServer server, Path dataDir) throws IOException, InterruptedException {
        try {
            if (server != null) {
                server.stop();
            }
        } finally {
            if (dataDir != null) {
                deleteRecursively(dataDir);
            }
        }
    }

    /** SIGTERM, as an operator stops it; SIGKILL if it does not exit within 30 s. */
    public void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    /** SIGKILL if it still runs: for clean-up after a failure. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void awaitPort() throws InterruptedException {
        Instant deadline = Instant.now().plus(STARTUP_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new AssertionError("the packaged server exited with " + process.exitValue() + " before listening\n"
                    + logTail(200));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new AssertionError("the packaged server did not listen on port " + port + " within " + STARTUP_TIMEOUT + "\n"
            + logTail(200));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }

    /** Deletes a folder and everything in it; nothing if it does not exist. */
    public static void deleteRecursively(Path root) throws IOException {
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
