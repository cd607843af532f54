package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.PackagedServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code java -jar hangar.jar admin ...} against a running packaged server: a key created, listed and revoked, a
 * bucket created, listed and deleted, the storage status read, all with the token the server generated in its data folder; a wrong token fails with the
 * server's 401 and exit status 1.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class AdminCommandIT {

    private record Run(int exit, String out, String err) {}

    @Test
    void administersARunningServerWithItsTokenFile() throws Exception {
        Path work = Files.createDirectories(Path.of("target", "admin-command-it").toAbsolutePath());
        Path dataDir = Files.createTempDirectory(work, "data-");
        PackagedServer server = null;
        try {
            server = PackagedServer.start(dataDir, "256m", Map.of(), "admin-cli");
            String url = "http://127.0.0.1:" + server.managementPort();
            Path token = dataDir.resolve("admin-token");
            awaitFile(token);

            Run created = admin(work, "--url", url, "--token-file", token.toString(), "keys", "create", "--bucket", "photos",
                "--read");
            assertThat(created.exit()).as(created.err()).isZero();
            assertThat(created.out()).contains("\"secret\"", "\"photos\"");
            String id = created.out().replaceAll("(?s).*\"id\"\\s*:\\s*\"(HK[A-Z0-9]+)\".*", "$1");
            assertThat(id).startsWith("HK");

            Run listed = admin(work, "--url", url, "--token-file", token.toString(), "keys", "list");
            assertThat(listed.exit()).as(listed.err()).isZero();
            assertThat(listed.out()).contains(id).doesNotContain("\"secret\"");

            Run revoked = admin(work, "--url", url, "--token-file", token.toString(), "keys", "revoke", id);
            assertThat(revoked.exit()).as(revoked.err()).isZero();
            assertThat(admin(work, "--url", url, "--token-file", token.toString(), "keys", "list").out()).doesNotContain(id);

            Run bucket = admin(work, "--url", url, "--token-file", token.toString(), "buckets", "create", "cli-made");
            assertThat(bucket.exit()).as(bucket.err()).isZero();
            Run buckets = admin(work, "--url", url, "--token-file", token.toString(), "buckets", "list");
            assertThat(buckets.exit()).as(buckets.err()).isZero();
            assertThat(buckets.out()).contains("<Name>cli-made</Name>");
            Run again = admin(work, "--url", url, "--token-file", token.toString(), "buckets", "create", "cli-made");
            assertThat(again.exit()).isEqualTo(1);
            assertThat(again.err()).contains("answered 409", "BucketAlreadyOwnedByYou");
            Run dropped = admin(work, "--url", url, "--token-file", token.toString(), "buckets", "delete", "cli-made");
            assertThat(dropped.exit()).as(dropped.err()).isZero();
            assertThat(admin(work, "--url", url, "--token-file", token.toString(), "buckets", "list").out())
                .doesNotContain("cli-made");

            Run storage = admin(work, "--url", url, "--token-file", token.toString(), "storage", "status");
            assertThat(storage.exit()).as(storage.err()).isZero();
            assertThat(storage.out()).contains("\"stored\"", "\"scrub\"");

            Path wrong = work.resolve("wrong-token");
            Files.writeString(wrong, "not-the-token");
            Run refused = admin(work, "--url", url, "--token-file", wrong.toString(), "keys", "list");
            assertThat(refused.exit()).isEqualTo(1);
            assertThat(refused.err()).contains("answered 401");
            Run refusedS3 = admin(work, "--url", url, "--token-file", wrong.toString(), "buckets", "list");
            assertThat(refusedS3.exit()).isEqualTo(1);
            assertThat(refusedS3.err()).contains("answered 401");
        } finally {
            PackagedServer.stopAndDelete(server, dataDir);
        }
    }

    private static void awaitFile(Path file) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(file) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(file).as("the token the server generates").exists();
    }

    private static Run admin(Path work, String... args) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "-jar", PackagedServer.jar().toString(), "admin"));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(work, "out-", ".txt");
        Path err = Files.createTempFile(work, "err-", ".txt");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("hangar admin " + String.join(" ", args) + " still ran after 2 minutes");
        }
        return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }
}
