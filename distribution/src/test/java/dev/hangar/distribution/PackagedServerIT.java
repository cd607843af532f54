package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.Digests;
import dev.hangar.distribution.support.PackagedServer;
import dev.hangar.distribution.support.RandomContent;
import dev.hangar.distribution.support.S3Clients;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * The packaged executable jar, as an operator runs it: {@code java -Xmx128m -jar hangar.jar} in a
 * child process configured through environment variables, streaming a 2 GiB object in and out.
 * Neither side ever holds the object: the test generates it on the fly and compares SHA-256 digests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class PackagedServerIT {

    private static final long OBJECT_SIZE = 2L * 1024 * 1024 * 1024;
    private static final String ACCESS_KEY = "HANGARPACKAGEDKEY001";
    private static final String SECRET_KEY = "hangar-packaged-secret-0123456789abcdefgh";

    private Path dataDir;
    private PackagedServer server;
    private S3Client s3;

    @BeforeAll
    void startPackagedServer() throws IOException, InterruptedException {
        Path work = Files.createDirectories(Path.of("target", "packaged-it"));
        dataDir = Files.createTempDirectory(work.toAbsolutePath(), "data-");
        server = PackagedServer.start(dataDir, "128m",
            Map.of("HANGAR_ROOT_ACCESS_KEY", ACCESS_KEY, "HANGAR_ROOT_SECRET_KEY", SECRET_KEY));
        s3 = S3Clients.sync(server.endpoint(), ACCESS_KEY, SECRET_KEY);
    }

    @AfterAll
    void stopPackagedServer() throws IOException, InterruptedException {
        try {
            if (s3 != null) {
                s3.close();
            }
        } finally {
            if (server != null) {
                server.stop();
            }
            if (dataDir != null) {
                PackagedServer.deleteRecursively(dataDir);
            }
        }
    }

    @Test
    void streamsTwoGibibytesInAndOut() throws IOException {
        String bucket = "packaged-" + Long.toString(System.nanoTime(), 36);
        s3.createBucket(request -> request.bucket(bucket));

        // SHA-256 computed while the SDK reads the upload; a retried or re-read stream starts a fresh digest.
        RandomContent content = RandomContent.of(2024, OBJECT_SIZE);
        AtomicReference<MessageDigest> uploadDigest = new AtomicReference<>();
        RequestBody body = RequestBody.fromContentProvider(() -> {
            MessageDigest digest = Digests.sha256();
            uploadDigest.set(digest);
            return new DigestInputStream(content.newStream(), digest);
        }, OBJECT_SIZE, "application/octet-stream");

        PutObjectResponse put = assertAliveWhile(() -> s3.putObject(request -> request.bucket(bucket).key("two-gib"), body));
        String uploaded = Digests.hex(uploadDigest.get().digest());
        assertThat(put.eTag()).matches("\"[0-9a-f]{32}\"");

        assertThat(s3.headObject(request -> request.bucket(bucket).key("two-gib")).contentLength()).isEqualTo(OBJECT_SIZE);

        Digests.Summary downloaded = assertAliveWhile(() -> {
            try (ResponseInputStream<GetObjectResponse> stream = s3.getObject(request -> request.bucket(bucket).key("two-gib"))) {
                assertThat(stream.response().contentLength()).isEqualTo(OBJECT_SIZE);
                return Digests.summarize(stream);
            }
        });
        assertThat(downloaded.length()).isEqualTo(OBJECT_SIZE);
        assertThat(downloaded.sha256Hex()).isEqualTo(uploaded);

        s3.deleteObject(request -> request.bucket(bucket).key("two-gib"));
        s3.deleteBucket(request -> request.bucket(bucket));
    }

    private interface IoSupplier<T> {
        T get() throws IOException;
    }

    /** Runs the call; if it fails, the failure says whether the server died and shows its output. */
    private <T> T assertAliveWhile(IoSupplier<T> call) throws IOException {
        try {
            return call.get();
        } catch (RuntimeException | IOException | AssertionError e) {
            throw new AssertionError("request failed\n" + server.logTail(200), e);
        }
    }
}
