package dev.hangar.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Bucket;

/** One container of the image: ready, its bucket made, an object round-tripped through the published port. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class HangarContainerTest {

    @BeforeAll
    static void engine() throws Exception {
        Engine.require();
    }

    @Test
    void startsReadyWithItsBucketsAndServesS3() {
        try (HangarContainer hangar = new HangarContainer(Engine.IMAGE).withImagePullPolicy(any -> false)
                .withCredentials("HANGARCONTAINERTEST1", "hangar-container-test-secret-0123456789ab")
                .withRegion("eu-west-1")
                .withBucket("photos", "logs")) {
            hangar.start();

            assertThat(hangar.getS3Endpoint().getPort()).isEqualTo(hangar.getMappedPort(HangarContainer.S3_PORT));
            assertThat(hangar.getRegion()).isEqualTo("eu-west-1");
            try (S3Client s3 = hangar.newS3Client()) {
                assertThat(s3.listBuckets().buckets()).extracting(Bucket::name).containsExactlyInAnyOrder("photos", "logs");
                s3.putObject(request -> request.bucket("photos").key("cat.jpg"), RequestBody.fromString("meow"));
                assertThat(s3.getObjectAsBytes(request -> request.bucket("photos").key("cat.jpg")).asUtf8String())
                    .isEqualTo("meow");
            }
        }
    }
}
