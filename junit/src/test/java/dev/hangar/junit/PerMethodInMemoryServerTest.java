package dev.hangar.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** A fresh in-memory server for each test: nothing of the previous test is there, and no block reaches the disk. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PerMethodInMemoryServerTest {

    @RegisterExtension
    static HangarExtension hangar = HangarExtension.perMethod(HangarOptions.defaults().withInMemory(true));

    @HangarInject
    S3Client s3;

    @RepeatedTest(2)
    void eachTestStartsOnAnEmptyServerAndLargeObjectsStayInMemory(HangarServer server) throws Exception {
        assertThat(s3.listBuckets().buckets()).as("buckets left by an earlier test").isEmpty();
        byte[] large = new byte[3 * 1024 * 1024 + 11];
        new Random(3).nextBytes(large);

        s3.createBucket(request -> request.bucket("memory"));
        s3.putObject(request -> request.bucket("memory").key("large"), RequestBody.fromBytes(large));

        assertThat(s3.getObjectAsBytes(request -> request.bucket("memory").key("large")).asByteArray()).isEqualTo(large);
        Path blocks = server.dataDir().resolve("blocks");
        assertThat(blockFiles(blocks)).as("files under %s", blocks).isZero();
    }

    private static long blockFiles(Path blocks) throws Exception {
        if (!Files.exists(blocks)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(blocks)) {
            return files.filter(Files::isRegularFile).count();
        }
    }
}
