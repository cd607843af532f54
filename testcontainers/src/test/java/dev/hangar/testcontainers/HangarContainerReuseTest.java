package dev.hangar.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Image;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.utility.TestcontainersConfiguration;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Testcontainers' reuse across test runs, as a project's developer uses it: an earlier run (a JVM of its own, which
 * exits without stopping its container) starts a {@code withReuse(true)} container and writes an object; this run
 * asks for a container of the same configuration and must get that one, object and all. A container configured
 * differently is a new one, and so is one of an image rebuilt under the same name (as {@code hangar:dev} is by every
 * build), not the container of the image's earlier build. Reuse needs {@code TESTCONTAINERS_REUSE_ENABLE=true}, which
 * this module's build sets.
 *
 * <p>The containers carry a label of this test, so that they are never a developer's own reused container, and so
 * that the test removes them at the end (Testcontainers leaves a reused container running) and, first, those that an
 * interrupted run left; so do the images it builds.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class HangarContainerReuseTest {
    static final String LABEL = "dev.hangar.test";
    static final String LABEL_VALUE = "HangarContainerReuseTest";
    static final String BUCKET = "reused";
    static final String KEY = "written-by-an-earlier-run";
    /** An image name that this test builds twice, as a developer rebuilds {@code hangar:dev}. */
    static final String REBUILT_IMAGE = "hangar-reuse-test:latest";

    /** The configuration both runs ask for: nothing in it may differ from one JVM to the next. */
    static HangarContainer reusable() {
        return reusable(Engine.IMAGE);
    }

    static HangarContainer reusable(String image) {
        return new HangarContainer(image)
                .withImagePullPolicy(any -> false)
                .withLabel(LABEL, LABEL_VALUE)
                .withBucket(BUCKET)
                .withReuse(true);
    }

    @BeforeAll
    static void engineAndReuse() throws Exception {
        Engine.require();
        assertThat(TestcontainersConfiguration.getInstance().environmentSupportsReuse())
                .as("Testcontainers' reuse is off: this module's build sets TESTCONTAINERS_REUSE_ENABLE=true"
                        + " (testcontainers/pom.xml); set it in the environment to run this test elsewhere")
                .isTrue();
    }

    @BeforeEach
    @AfterEach
    void removeContainersAndImages() {
        removeContainersOfThisTest();
    }

    @Test
    void aContainerOfTheSameConfigurationIsTheOneAnEarlierRunLeft() throws Exception {
        String payload = "run " + UUID.randomUUID();
        String earlierId = earlierRun(payload);
        assertThat(runningContainersOfThisTest()).containsExactly(earlierId);

        HangarContainer again = reusable();
        again.start();

        assertThat(again.getContainerId()).as("the container the earlier run left").isEqualTo(earlierId);
        try (S3Client s3 = again.newS3Client()) {
            assertThat(s3.getObjectAsBytes(request -> request.bucket(BUCKET).key(KEY)).asUtf8String())
                    .isEqualTo(payload);
        }

        HangarContainer otherRegion = reusable().withRegion("eu-west-1");
        otherRegion.start();

        assertThat(otherRegion.getContainerId()).as("a container of another configuration").isNotEqualTo(earlierId);
        try (S3Client s3 = otherRegion.newS3Client()) {
            assertThatThrownBy(() -> s3.getObjectAsBytes(request -> request.bucket(BUCKET).key(KEY)))
                    .isInstanceOf(NoSuchKeyException.class);
        }
        assertThat(runningContainersOfThisTest()).containsExactlyInAnyOrder(earlierId, otherRegion.getContainerId());
    }

    @Test
    void anImageRebuiltUnderTheSameNameGetsANewContainer() {
        DockerClient docker = DockerClientFactory.instance().client();
        String firstBuild = buildRebuiltImage(docker, "1");
        HangarContainer first = reusable(REBUILT_IMAGE);
        first.start();
        assertThat(first.getContainerInfo().getImageId()).isEqualTo(firstBuild);

        String secondBuild = buildRebuiltImage(docker, "2");
        HangarContainer second = reusable(REBUILT_IMAGE);
        second.start();

        assertThat(second.getContainerId()).as("not the container of the image's earlier build")
                .isNotEqualTo(first.getContainerId());
        assertThat(second.getContainerInfo().getImageId()).isEqualTo(secondBuild);
    }

    /**
     * {@link #REBUILT_IMAGE} as a new image (a new id) of the same content: the Hangar image committed with another
     * build label. Returns the image's id.
     */
    private static String buildRebuiltImage(DockerClient docker, String build) {
        String container = docker.createContainerCmd(Engine.IMAGE).exec().getId();
        try {
            String repository = REBUILT_IMAGE.substring(0, REBUILT_IMAGE.indexOf(':'));
            String tag = REBUILT_IMAGE.substring(REBUILT_IMAGE.indexOf(':') + 1);
            return docker.commitCmd(container).withRepository(repository).withTag(tag)
                    .withLabels(Map.of(LABEL, LABEL_VALUE, "dev.hangar.test.build", build))
                    .exec();
        } finally {
            docker.removeContainerCmd(container).exec();
        }
    }

    /** Runs {@link EarlierRun} in a JVM of its own with this one's class path, and returns its container's id. */
    private static String earlierRun(String payload) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                "-Dhangar.image=" + Engine.IMAGE));
        String apiVersion = System.getProperty("api.version");
        if (apiVersion != null) {
            command.add("-Dapi.version=" + apiVersion);
        }
        command.add(EarlierRun.class.getName());
        command.add(payload);
        // The environment is this JVM's: the build's TESTCONTAINERS_* settings, reuse among them.
        Path output = Files.createTempFile("hangar-earlier-run", ".log");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            process.getOutputStream().close();
            boolean ended = process.waitFor(3, TimeUnit.MINUTES);
            if (!ended) {
                process.destroyForcibly().waitFor();
            }
            String log = Files.readString(output);
            assertThat(ended).as("the earlier run ended within 3 minutes; its output:%n%s", log).isTrue();
            assertThat(process.exitValue()).as("the earlier run's exit status; its output:%n%s", log).isZero();
            return log.lines().filter(line -> line.startsWith(EarlierRun.CONTAINER_ID))
                    .map(line -> line.substring(EarlierRun.CONTAINER_ID.length()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("the earlier run printed no container id; its output:\n" + log));
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private static List<String> runningContainersOfThisTest() {
        return containersOfThisTest(DockerClientFactory.instance().client()).stream()
                .filter(container -> "running".equals(container.getState()))
                .map(Container::getId)
                .toList();
    }

    private static void removeContainersOfThisTest() {
        DockerClient docker = DockerClientFactory.instance().client();
        for (Container container : containersOfThisTest(docker)) {
            docker.removeContainerCmd(container.getId()).withForce(true).withRemoveVolumes(true).exec();
        }
        for (Image image : docker.listImagesCmd().withLabelFilter(Map.of(LABEL, LABEL_VALUE)).exec()) {
            docker.removeImageCmd(image.getId()).withForce(true).exec();
        }
    }

    private static List<Container> containersOfThisTest(DockerClient docker) {
        return docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(LABEL, LABEL_VALUE)).exec();
    }
}
