package dev.hangar.testcontainers;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An earlier test run for {@link HangarContainerReuseTest}, in a JVM of its own: starts the reusable container,
 * writes the object named by the test with the given content, prints the container's id and exits without stopping
 * it, as a test run with reuse does.
 */
final class EarlierRun {
    static final String CONTAINER_ID = "container-id=";

    private EarlierRun() {}

    public static void main(String[] args) {
        HangarContainer hangar = HangarContainerReuseTest.reusable();
        hangar.start();
        try (S3Client s3 = hangar.newS3Client()) {
            s3.putObject(request -> request.bucket(HangarContainerReuseTest.BUCKET).key(HangarContainerReuseTest.KEY),
                    RequestBody.fromString(args[0]));
        }
        System.out.println(CONTAINER_ID + hangar.getContainerId());
        // Docker client threads would keep the JVM up; the container is meant to outlive it.
        System.exit(0);
    }
}
