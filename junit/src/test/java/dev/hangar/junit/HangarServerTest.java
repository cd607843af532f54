package dev.hangar.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.S3Client;

/** {@link HangarServer} without JUnit's extension: two servers side by side, and what closing one leaves. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class HangarServerTest {

    @Test
    void twoServersRunSideBySideAndClosingOneStopsItAndDeletesItsFolder() {
        HangarServer first = HangarServer.start();
        Path firstData = first.dataDir();
        try (HangarServer second = HangarServer.start(HangarOptions.defaults().withInMemory(true))) {
            assertThat(first.endpoint()).isNotEqualTo(second.endpoint());
            S3Client one = first.newClient();
            one.createBucket(request -> request.bucket("only-in-the-first"));
            assertThat(second.newClient().listBuckets().buckets()).isEmpty();

            first.close();

            assertThat(Files.exists(firstData)).as("the first server's temporary data folder").isFalse();
            assertThatThrownBy(() -> S3Client.builder().endpointOverride(first.endpoint()).region(first.region())
                    .credentialsProvider(first.credentials()).forcePathStyle(true).build().listBuckets())
                .as("a request to the stopped server").isInstanceOf(SdkClientException.class);
            assertThat(second.newClient().listBuckets().buckets()).as("the second server, still serving").isEmpty();
        }
    }
}
