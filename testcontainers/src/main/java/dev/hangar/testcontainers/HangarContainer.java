package dev.hangar.testcontainers;

import com.github.dockerjava.api.command.InspectContainerResponse;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;

/**
 * Hangar's container image as a Testcontainers container: the S3 API on port 9000 and the management port 9001
 * published, ready when {@code /actuator/health/readiness} answers 200, the root key pair and region set by the
 * test (fixed defaults, so that a container started with {@code withReuse(true)} is found again), buckets
 * created on start by {@link #withBucket}. With reuse, the container also carries the id of its image
 * ({@link #IMAGE_ID_LABEL}), so that an image rebuilt under the same name gets a new container.
 *
 * <pre>{@code
 * @Container
 * static HangarContainer hangar = new HangarContainer("hangar:0.1.0-SNAPSHOT").withBucket("photos");
 *
 * S3Client s3 = S3Client.builder().endpointOverride(hangar.getS3Endpoint()).region(Region.of(hangar.getRegion()))
 *         .credentialsProvider(...hangar.getAccessKey(), hangar.getSecretKey()...).forcePathStyle(true).build();
 * }</pre>
 */
public class HangarContainer extends GenericContainer<HangarContainer> {
    public static final int S3_PORT = 9000;
    public static final int MANAGEMENT_PORT = 9001;
    public static final String DEFAULT_ACCESS_KEY = "HANGARTESTCONTAINERS";
    public static final String DEFAULT_SECRET_KEY = "hangar-testcontainers-secret-0123456789ab";
    public static final String DEFAULT_REGION = "us-east-1";
    /**
     * With {@code withReuse(true)}, the id of the image the container runs: part of the configuration by which
     * Testcontainers finds a container to reuse.
     */
    public static final String IMAGE_ID_LABEL = "dev.hangar.image.id";

    private String accessKey = DEFAULT_ACCESS_KEY;
    private String secretKey = DEFAULT_SECRET_KEY;
    private String region = DEFAULT_REGION;
    private final List<String> buckets = new ArrayList<>();

    public HangarContainer(String image) {
        this(DockerImageName.parse(image));
    }

    public HangarContainer(DockerImageName image) {
        super(image);
        withExposedPorts(S3_PORT, MANAGEMENT_PORT);
        // No shell in the image: readiness over HTTP, which a cluster node also answers only once it reaches a
        // write quorum.
        waitingFor(Wait.forHttp("/actuator/health/readiness").forPort(MANAGEMENT_PORT).forStatusCode(200)
                .withStartupTimeout(Duration.ofMinutes(2)));
        withEnv("HANGAR_WEBSITE_ENABLED", "false");
    }

    /** The root key pair, which may do everything (the defaults are fixed, so that a reused container is found). */
    public HangarContainer withCredentials(String accessKey, String secretKey) {
        this.accessKey = accessKey;
        this.secretKey = secretKey;
        return self();
    }

    public HangarContainer withRegion(String region) {
        this.region = region;
        return self();
    }

    /** Buckets to create once the container is up (one that exists already, in a reused container, is kept). */
    public HangarContainer withBucket(String... names) {
        buckets.addAll(List.of(names));
        return self();
    }

    @Override
    protected void configure() {
        withEnv("HANGAR_ROOT_ACCESS_KEY", accessKey);
        withEnv("HANGAR_ROOT_SECRET_KEY", secretKey);
        withEnv("HANGAR_S3_REGION", region);
        if (isShouldBeReused()) {
            // Testcontainers finds a container to reuse by a hash of its configuration, which names the image by its
            // name only: after the image is rebuilt under the same name (hangar:dev, by every build), it would hand
            // back a container of the earlier build. The image's id makes a rebuilt image another configuration.
            // (Resolving the name here pulls the image first when its pull policy says so, as start would.)
            withLabel(IMAGE_ID_LABEL, getDockerClient().inspectImageCmd(getDockerImageName()).exec().getId());
        }
    }

    @Override
    protected void containerIsStarted(InspectContainerResponse info, boolean reused) {
        if (buckets.isEmpty()) {
            return;
        }
        try (S3Client s3 = newS3Client()) {
            for (String bucket : buckets) {
                try {
                    s3.createBucket(request -> request.bucket(bucket));
                } catch (BucketAlreadyOwnedByYouException kept) {
                    // A reused container has it from an earlier run.
                }
            }
        }
    }

    /** The S3 endpoint as the host sees it, {@code http://<host>:<mapped port>}; address buckets path-style. */
    public URI getS3Endpoint() {
        return URI.create("http://" + getHost() + ":" + getMappedPort(S3_PORT));
    }

    /** The management endpoint (health, metrics, administration) as the host sees it. */
    public URI getManagementEndpoint() {
        return URI.create("http://" + getHost() + ":" + getMappedPort(MANAGEMENT_PORT));
    }

    public String getRegion() {
        return region;
    }

    public String getAccessKey() {
        return accessKey;
    }

    public String getSecretKey() {
        return secretKey;
    }

    /** A client of the root key for this container (path-style); the caller closes it. */
    public S3Client newS3Client() {
        return S3Client.builder()
                .endpointOverride(getS3Endpoint())
                .region(Region.of(region))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .forcePathStyle(true)
                .build();
    }
}
