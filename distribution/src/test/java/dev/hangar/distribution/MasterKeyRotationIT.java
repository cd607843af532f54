package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * Rotating the key service's master key, as docs/security.md describes it, across restarts of one server: the new
 * key made current and the old one kept as a previous key, every object stays readable and new ones are wrapped
 * with the new key; an object copied onto itself with AES256 is re-wrapped, so that once every object has been, the
 * old key can be retired; an object still wrapped with a retired key answers an error naming that key. A master key
 * file inside the data folder is refused at start.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MasterKeyRotationIT {
    private static final Random RANDOM = new Random();

    @Test
    void aRotatedMasterKeyKeepsEveryObjectReadableAndTheOldOneCanBeRetired() throws IOException {
        Path work = Files.createTempDirectory(Files.createDirectories(Path.of("target", "rotation-it")).toAbsolutePath(), "");
        Path data = work.resolve("data");
        Path first = keyFile(work, "first.key");
        Path second = keyFile(work, "second.key");
        byte[] small = bytes(1000);
        byte[] large = bytes(3 * 1024 * 1024 + 7);

        try (DedicatedServer server = DedicatedServer.start(data, "encryption.master-key-file=" + first)) {
            S3Client s3 = server.s3();
            s3.createBucket(request -> request.bucket("rotation"));
            for (String key : new String[] {"small", "left-behind"}) {
                put(s3, key, small);
            }
            put(s3, "large", large);
        }

        try (DedicatedServer server = DedicatedServer.start(data, "encryption.master-key-file=" + second,
                "encryption.previous-master-key-files=" + first)) {
            S3Client s3 = server.s3();
            assertThat(get(s3, "small")).isEqualTo(small);
            assertThat(get(s3, "large")).isEqualTo(large);
            put(s3, "after", small);
            // Re-wrapped with the current key: an object copied onto itself with AES256
            for (String key : new String[] {"small", "large"}) {
                s3.copyObject(request -> request.sourceBucket("rotation").sourceKey(key).destinationBucket("rotation")
                        .destinationKey(key).serverSideEncryption(ServerSideEncryption.AES256)
                        .metadataDirective(MetadataDirective.COPY));
            }
        }

        try (DedicatedServer server = DedicatedServer.start(data, "encryption.master-key-file=" + second)) {
            S3Client s3 = server.s3();
            assertThat(get(s3, "small")).isEqualTo(small);
            assertThat(get(s3, "large")).isEqualTo(large);
            assertThat(get(s3, "after")).isEqualTo(small);
            S3Exception retired = catchThrowableOfType(S3Exception.class, () -> get(s3, "left-behind"));
            assertThat(retired.statusCode()).isEqualTo(500);
            assertThat(retired.awsErrorDetails().errorMessage()).contains("not configured");
        }

        try (DedicatedServer server = DedicatedServer.start(data)) {
            S3Client s3 = server.s3();
            S3Exception keyless = catchThrowableOfType(S3Exception.class, () -> get(s3, "after"));
            assertThat(keyless.statusCode()).isEqualTo(500);
            assertThat(keyless.awsErrorDetails().errorMessage()).contains("hangar.encryption.master-key-file");
            S3Exception refused = catchThrowableOfType(S3Exception.class, () -> put(s3, "new", small));
            assertThat(refused.statusCode()).isEqualTo(501);
            // Objects stored in the clear are no business of the key service
            s3.putObject(request -> request.bucket("rotation").key("plain"), RequestBody.fromBytes(small));
            assertThat(s3.getObjectAsBytes(request -> request.bucket("rotation").key("plain")).asByteArray())
                    .isEqualTo(small);
        }
    }

    @Test
    void aMasterKeyFileInsideTheDataFolderIsRefusedAtStart() throws IOException {
        Path work = Files.createTempDirectory(Files.createDirectories(Path.of("target", "rotation-it")).toAbsolutePath(), "");
        Path data = Files.createDirectories(work.resolve("data"));
        Path inside = keyFile(data, "master.key.b64");

        assertThatThrownBy(() -> DedicatedServer.start(data, "encryption.master-key-file=" + inside).close())
                .hasStackTraceContaining("inside the data folder");
    }

    private static void put(S3Client s3, String key, byte[] data) {
        s3.putObject(request -> request.bucket("rotation").key(key).serverSideEncryption(ServerSideEncryption.AES256),
                RequestBody.fromBytes(data));
    }

    private static byte[] get(S3Client s3, String key) {
        return s3.getObjectAsBytes(request -> request.bucket("rotation").key(key)).asByteArray();
    }

    private static Path keyFile(Path folder, String name) throws IOException {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Files.writeString(folder.resolve(name), Base64.getEncoder().encodeToString(key));
    }

    private static byte[] bytes(int size) {
        byte[] bytes = new byte[size];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
