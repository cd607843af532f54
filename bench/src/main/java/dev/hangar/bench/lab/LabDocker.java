package dev.hangar.bench.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.testcontainers.DockerClientFactory;

/**
 * Testcontainers on the project's machines (../shared/CONTAINERS.md): the engine's own API version
 * (Debian's 20.10 speaks 1.41, older than Testcontainers 2 asks for), no Ryuk, whose image cannot be
 * pulled (the lab removes its containers itself), and no registry at all.
 */
public final class LabDocker {
    private LabDocker() {
    }

    /** Sets what Testcontainers needs and checks that an engine answers; fails saying how to get one. */
    static void configure() throws IOException, InterruptedException {
        if (System.getProperty("api.version") == null) {
            String version = engineApiVersion();
            if (version != null) {
                System.setProperty("api.version", version);
            }
        }
        if (!"true".equalsIgnoreCase(System.getenv("TESTCONTAINERS_RYUK_DISABLED"))) {
            throw new IllegalStateException("set TESTCONTAINERS_RYUK_DISABLED=true (and TESTCONTAINERS_HOST_OVERRIDE="
                    + "localhost on the project's machines): Ryuk's image cannot be pulled. bench/scripts/consensus-lab.sh"
                    + " sets both");
        }
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            throw new IllegalStateException("no Docker engine answers: start one (Debian: apt-get install docker.io,"
                    + " then dockerd &)");
        }
    }

    /** The engine's API version as the docker CLI reports it, or null without a CLI that answers. */
    public static @Nullable String engineApiVersion() throws IOException, InterruptedException {
        Process docker;
        try {
            docker = new ProcessBuilder("docker", "version", "--format", "{{.Server.APIVersion}}")
                    .redirectErrorStream(true).start();
        } catch (IOException noCli) {
            return null;
        }
        if (!docker.waitFor(30, TimeUnit.SECONDS)) {
            docker.destroyForcibly();
            return null;
        }
        String output = new String(docker.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        return docker.exitValue() == 0 && output.matches("\\d+\\.\\d+") ? output : null;
    }
}
