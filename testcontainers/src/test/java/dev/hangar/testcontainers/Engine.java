package dev.hangar.testcontainers;

import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.github.dockerjava.api.exception.NotFoundException;
import org.testcontainers.DockerClientFactory;

/**
 * The Docker engine and image the module's tests need, checked as the distribution's container test does (the
 * API version Testcontainers speaks is set by the build: {@code docker.api.version}).
 */
final class Engine {
    static final String IMAGE = System.getProperty("hangar.image", "hangar:dev");

    private Engine() {}

    /** Skips with HANGAR_CONTAINERS=skip; fails, saying what to do, without an engine or the image. */
    static void require() throws Exception {
        assumeFalse("skip".equalsIgnoreCase(System.getenv().getOrDefault("HANGAR_CONTAINERS", "")),
                "HANGAR_CONTAINERS=skip: not starting containers");
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            throw new AssertionError("no Docker engine answers (Debian: apt-get install docker.io, then dockerd &;"
                    + " .ci/run does this), or set HANGAR_CONTAINERS=skip");
        }
        try {
            DockerClientFactory.instance().client().inspectImageCmd(IMAGE).exec();
        } catch (NotFoundException e) {
            throw new AssertionError("no image " + IMAGE + " in the local engine: ./mvnw verify builds it before the"
                    + " distribution's integration tests; ./mvnw -DskipTests -Pimage -pl distribution -am package builds it"
                    + " alone", e);
        }
    }
}
