package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.DataFolderScan;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * Server-side encryption with KMS keys (SSE-KMS) through the AWS SDK, the keys made by an operator through the
 * administration API ({@code /actuator/kmskeys}): objects sealed with a named key or the default {@code aws/s3},
 * read back without anything from the client, the key's ARN and the encryption context answered, copies and parts
 * between SSE-KMS and the other modes, a disabled key refusing both ways, and nothing readable at rest.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KmsKeyEncryptionIT extends AbstractS3IT {
    private static final Random RANDOM = new Random();
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern ARN = Pattern.compile("\"arn\"\\s*:\\s*\"([^\"]+)\"");

    private AdminApi admin;
    private String bucket;
    private String keyId;
    private String keyArn;

    @BeforeAll
    void createBucketAndKey() {
        admin = new AdminApi(managementEndpoint(), http);
        bucket = createBucket("sse-kms");
        AdminApi.Response created = admin.post("/actuator/kmskeys", Map.of("description", "KmsKeyEncryptionIT"));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        keyId = field(ID, created.body());
        keyArn = field(ARN, created.body());
        assertThat(keyArn).endsWith(":key/" + keyId);
    }

    @Test
    void objectsAreSealedWithTheNamedKeyOrTheDefaultOneAndReadBackWithoutAKey() {
        String context = Base64.getEncoder().encodeToString("{\"app\":\"it\"}".getBytes(StandardCharsets.UTF_8));
        for (int size : new int[] {0, 1000, 2 * MIB + 3}) {
            byte[] data = bytes(size);
            String name = "named-" + size;
            PutObjectResponse put = s3.putObject(request -> request.bucket(bucket).key(name)
                    .serverSideEncryption(ServerSideEncryption.AWS_KMS).ssekmsKeyId(keyId)
                    .ssekmsEncryptionContext(context), RequestBody.fromBytes(data));

            assertThat(put.serverSideEncryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
            assertThat(put.ssekmsKeyId()).isEqualTo(keyArn);
            assertThat(put.ssekmsEncryptionContext()).isEqualTo(context);
            assertThat(put.eTag()).as("the tag of SSE-KMS content is not its MD5").isNotEqualTo(etagOf(data));
            var got = s3.getObjectAsBytes(request -> request.bucket(bucket).key(name));
            assertThat(got.asByteArray()).isEqualTo(data);
            assertThat(got.response().ssekmsKeyId()).isEqualTo(keyArn);
        }
        // By ARN, and with no key: the default key, made on first use, found again by its alias
        s3.putObject(request -> request.bucket(bucket).key("by-arn").serverSideEncryption(ServerSideEncryption.AWS_KMS)
                .ssekmsKeyId(keyArn), RequestBody.fromString("by arn"));
        String defaultArn = s3.putObject(request -> request.bucket(bucket).key("default")
                .serverSideEncryption(ServerSideEncryption.AWS_KMS), RequestBody.fromString("default")).ssekmsKeyId();
        assertThat(defaultArn).isNotEqualTo(keyArn).contains(":key/");
        assertThat(s3.putObject(request -> request.bucket(bucket).key("default-2")
                .serverSideEncryption(ServerSideEncryption.AWS_KMS), RequestBody.fromString("again")).ssekmsKeyId())
                .isEqualTo(defaultArn);
        assertThat(s3.headObject(request -> request.bucket(bucket).key("default")).ssekmsKeyId()).isEqualTo(defaultArn);
        assertThat(admin.get("/actuator/kmskeys").body()).contains(keyId).contains("alias/aws/s3");
    }

    @Test
    void unknownKeysAndKmsHeadersWithoutAwsKmsAreRefused() {
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("unknown")
                .serverSideEncryption(ServerSideEncryption.AWS_KMS).ssekmsKeyId("no-such-key"),
                RequestBody.fromString("x")), 400, "KMS.NotFoundException");
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("mismatch")
                .serverSideEncryption(ServerSideEncryption.AES256).ssekmsKeyId(keyId), RequestBody.fromString("x")),
                400, "InvalidArgument");
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("context")
                .serverSideEncryption(ServerSideEncryption.AWS_KMS).ssekmsEncryptionContext("bm90IGpzb24="),
                RequestBody.fromString("x")), 400, "InvalidArgument");
        for (String key : new String[] {"unknown", "mismatch", "context"}) {
            assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key)), 404);
        }
    }

    @Test
    void aDisabledKeyRefusesNewObjectsAndReadsUntilItIsEnabledAgain() {
        String id = field(ID, admin.post("/actuator/kmskeys", Map.of("description", "to disable")).body());
        s3.putObject(request -> request.bucket(bucket).key("disabled").serverSideEncryption(ServerSideEncryption.AWS_KMS)
                .ssekmsKeyId(id), RequestBody.fromString("sealed"));

        assertThat(admin.post("/actuator/kmskeys/" + id, Map.of("enabled", false)).status()).isEqualTo(200);
        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("disabled")), 400,
                "KMS.DisabledException");
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("disabled-new")
                .serverSideEncryption(ServerSideEncryption.AWS_KMS).ssekmsKeyId(id), RequestBody.fromString("x")),
                400, "KMS.DisabledException");
        assertThat(admin.post("/actuator/kmskeys/" + id, Map.of("enabled", true)).status()).isEqualTo(200);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("disabled")).asUtf8String())
                .isEqualTo("sealed");
    }

    @Test
    void copiesAndPartsGoBetweenSseKmsAndTheOtherModes() {
        byte[] data = bytes(MIB + 9);
        s3.putObject(request -> request.bucket(bucket).key("copy-kms").serverSideEncryption(ServerSideEncryption.AWS_KMS)
                .ssekmsKeyId(keyId), RequestBody.fromBytes(data));
        // SSE-KMS -> SSE-S3 -> SSE-KMS (default key) -> plain
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("copy-kms").destinationBucket(bucket)
                .destinationKey("kms-to-s3").serverSideEncryption(ServerSideEncryption.AES256));
        assertThat(s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("kms-to-s3")
                .destinationBucket(bucket).destinationKey("s3-to-kms").serverSideEncryption(ServerSideEncryption.AWS_KMS))
                .ssekmsKeyId()).contains(":key/");
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("s3-to-kms").destinationBucket(bucket)
                .destinationKey("kms-to-plain"));
        for (String key : new String[] {"kms-to-s3", "s3-to-kms", "kms-to-plain"}) {
            assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)).asByteArray()).as(key)
                    .isEqualTo(data);
        }
        assertThat(s3.headObject(request -> request.bucket(bucket).key("kms-to-plain")).serverSideEncryption()).isNull();

        // A multipart upload sealed with the key: a part uploaded, a part copied from the SSE-KMS object
        byte[] first = bytes(5 * MIB + 1);
        var created = s3.createMultipartUpload(request -> request.bucket(bucket).key("mpu")
                .serverSideEncryption(ServerSideEncryption.AWS_KMS).ssekmsKeyId(keyId));
        assertThat(created.ssekmsKeyId()).isEqualTo(keyArn);
        String uploadId = created.uploadId();
        String part1 = s3.uploadPart(request -> request.bucket(bucket).key("mpu").uploadId(uploadId).partNumber(1),
                RequestBody.fromBytes(first)).eTag();
        String part2 = s3.uploadPartCopy(request -> request.sourceBucket(bucket).sourceKey("copy-kms")
                .destinationBucket(bucket).destinationKey("mpu").uploadId(uploadId).partNumber(2)).copyPartResult()
                .eTag();
        var completed = s3.completeMultipartUpload(request -> request.bucket(bucket).key("mpu").uploadId(uploadId)
                .multipartUpload(upload -> upload.parts(CompletedPart.builder().partNumber(1).eTag(part1).build(),
                        CompletedPart.builder().partNumber(2).eTag(part2).build())));
        assertThat(completed.serverSideEncryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
        assertThat(completed.ssekmsKeyId()).isEqualTo(keyArn);
        byte[] whole = new byte[first.length + data.length];
        System.arraycopy(first, 0, whole, 0, first.length);
        System.arraycopy(data, 0, whole, first.length, data.length);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("mpu")).asByteArray()).isEqualTo(whole);
    }

    /** A bucket whose default encryption is SSE-KMS seals the writes that ask for none with its key. */
    @Test
    void aBucketsDefaultEncryptionMaySealWithAKmsKey() {
        String encrypted = createBucket("kms-default");
        s3.putBucketEncryption(request -> request.bucket(encrypted).serverSideEncryptionConfiguration(configuration ->
                configuration.rules(rule -> rule.applyServerSideEncryptionByDefault(encryption -> encryption
                        .sseAlgorithm(ServerSideEncryption.AWS_KMS).kmsMasterKeyID(keyArn)))));
        assertThat(s3.getBucketEncryption(request -> request.bucket(encrypted)).serverSideEncryptionConfiguration()
                .rules().getFirst().applyServerSideEncryptionByDefault().kmsMasterKeyID()).isEqualTo(keyArn);

        PutObjectResponse put = s3.putObject(request -> request.bucket(encrypted).key("by-default"),
                RequestBody.fromString("sealed by default"));

        assertThat(put.serverSideEncryption()).isEqualTo(ServerSideEncryption.AWS_KMS);
        assertThat(put.ssekmsKeyId()).isEqualTo(keyArn);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(encrypted).key("by-default")).asUtf8String())
                .isEqualTo("sealed by default");
        // A default naming a key that does not exist refuses the writes, as AWS does
        s3.putBucketEncryption(request -> request.bucket(encrypted).serverSideEncryptionConfiguration(configuration ->
                configuration.rules(rule -> rule.applyServerSideEncryptionByDefault(encryption -> encryption
                        .sseAlgorithm(ServerSideEncryption.AWS_KMS).kmsMasterKeyID("no-such-key")))));
        assertS3Error(() -> s3.putObject(request -> request.bucket(encrypted).key("refused"),
                RequestBody.fromString("x")), 400, "KMS.NotFoundException");
    }

    @Test
    void sealedContentIsNotReadableInTheDataFolder() throws IOException {
        Instant since = Instant.now().minusSeconds(2);
        byte[] secret = bytes(2 * MIB);
        byte[] small = bytes(2000);
        s3.putObject(request -> request.bucket(bucket).key("disk").serverSideEncryption(ServerSideEncryption.AWS_KMS)
                .ssekmsKeyId(keyId), RequestBody.fromBytes(secret));
        s3.putObject(request -> request.bucket(bucket).key("disk-small").serverSideEncryption(ServerSideEncryption.AWS_KMS)
                .ssekmsKeyId(keyId), RequestBody.fromBytes(small));

        List<Path> roots = Stream.of(dataDir(), dataDir().resolveSibling(dataDir().getFileName() + "-peers")).toList();
        assertThat(DataFolderScan.found(roots, since, Arrays.copyOfRange(secret, MIB + 3, MIB + 67))).isFalse();
        assertThat(DataFolderScan.found(roots, since, Arrays.copyOfRange(small, 900, 964))).isFalse();
    }

    private static String field(Pattern pattern, String json) {
        Matcher matcher = pattern.matcher(json);
        assertThat(matcher.find()).as(json).isTrue();
        return matcher.group(1);
    }

    private static String etagOf(byte[] data) {
        try {
            return '"' + HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data)) + '"';
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] bytes(int size) {
        byte[] bytes = new byte[size];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
