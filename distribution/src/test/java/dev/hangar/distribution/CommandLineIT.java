package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.PackagedServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code java -jar hangar.jar --help} and {@code --version} print and exit, starting nothing: no listener, no
 * data folder in the working directory. A word that is not an option is refused instead of ignored.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class CommandLineIT {

    private record Run(int exit, String out, String err, List<Path> leftInWorkingDirectory) {}

    @Test
    void helpPrintsTheUsageAndStartsNothing() throws Exception {
        Run run = run("--help");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("Usage: java -jar hangar.jar", "--hangar.data-dir", "--version",
            "docs/configuration.md");
        assertThat(run.leftInWorkingDirectory()).as("files the command left in its working directory").isEmpty();
    }

    @Test
    void versionPrintsTheBuildsVersionAndStartsNothing() throws Exception {
        Run run = run("--version");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out().strip()).matches("Hangar \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
        assertThat(run.leftInWorkingDirectory()).isEmpty();
    }

    @Test
    void aWordThatIsNoOptionIsRefusedNotIgnored() throws Exception {
        Run run = run("serve");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("unknown command or argument 'serve'", "--help");
        assertThat(run.leftInWorkingDirectory()).isEmpty();
    }

    private static Run run(String argument) throws IOException, InterruptedException {
        Path work = Files.createDirectories(Path.of("target", "command-line-it").toAbsolutePath());
        Path cwd = Files.createTempDirectory(work, "cwd-");
        String java = ProcessHandle.current().info().command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Path out = work.resolve(cwd.getFileName() + ".out");
        Path err = work.resolve(cwd.getFileName() + ".err");
        Process process = new ProcessBuilder(java, "-jar", PackagedServer.jar().toString(), argument)
            .directory(cwd.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("java -jar hangar.jar " + argument + " still ran after 2 minutes: it started a server?\n"
                + Files.readString(out, StandardCharsets.UTF_8));
        }
        List<Path> left;
        try (Stream<Path> files = Files.list(cwd)) {
            left = files.toList();
        }
        return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8), left);
    }
}
