package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.bench.LoadGenerator;
import dev.hangar.distribution.support.PackagedServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load generator's {@code coldstart} against the packaged jar: it starts the server itself, twice, on
 * an emptied data folder, and reports the first answer of each start and the GETs of each size.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ColdStartIT {

    private static final String ACCESS_KEY = "HANGARCOLDSTARTKEY01";
    private static final String SECRET_KEY = "hangar-coldstart-secret-0123456789abcdef";

    @Test
    void startsTheServerTwiceAndTimesItsFirstAnswerAndGets(@TempDir Path work) throws IOException {
        Path data = work.resolve("data");
        Files.createDirectories(data);
        Files.writeString(data.resolve("left-over"), "a file the first start must not see");
        int port = freePort();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int exitCode = LoadGenerator.run(new PrintWriter(out), new PrintWriter(err), "coldstart",
            "--endpoint", "http://127.0.0.1:" + port, "--path-style", "--access-key", ACCESS_KEY, "--secret-key", SECRET_KEY,
            "--data", data.toString(), "--runs", "2", "--requests", "26", "--sizes", "1KiB,4KiB", "--small", "4KiB",
            "--log", work.resolve("server.log").toString(), "--",
            java, "-Xmx256m", "--enable-native-access=ALL-UNNAMED", "-jar", PackagedServer.jar().toString(),
            "--hangar.data-dir=" + data, "--hangar.s3.port=" + port, "--hangar.root-access-key=" + ACCESS_KEY,
            "--hangar.root-secret-key=" + SECRET_KEY, "--management.server.port=" + freePort(), "--hangar.website.port=0");

        String report = out.toString();
        assertThat(exitCode).as("exit code; stdout:\n%s\nstderr:\n%s", report, err).isZero();
        assertThat(report).contains("run 1: first answer", "run 2: first answer", "start to first answer: median",
            "small GET (<= 4KiB) of the first 26 requests: p50");
        assertThat(report.lines().filter(line -> line.matches("^(1KiB|4KiB)\\s+26\\s+0\\s.*"))).as("GETs per size over both starts")
            .hasSize(2);
        assertThat(data.resolve("left-over")).as("emptied before each start").doesNotExist();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
