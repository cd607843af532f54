package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.DataFolderScan;
import dev.hangar.distribution.support.Digests;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * Server-side encryption with Hangar-managed keys (SSE-S3, {@code x-amz-server-side-encryption: AES256}) through the
 * AWS SDK: every object a fresh data key wrapped by the suite's master key (a file outside the data folder), GETs
 * with no key from the client, copies and parts between SSE-S3, SSE-C and plain, and what is on disk.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ManagedKeyEncryptionIT extends AbstractS3IT {
    private static final Random RANDOM = new Random();

    private final byte[] customerKey = bytes(32);
    private final String customerKeyBase64 = Base64.getEncoder().encodeToString(customerKey);
    private final String customerKeyMd5 = Base64.getEncoder().encodeToString(md5(customerKey));
    private String bucket;

    @BeforeAll
    void createBucket() {
        bucket = createBucket("sse-s3");
        s3.putObject(request -> request.bucket(bucket).key("copy-plain-source"), RequestBody.fromString("plain"));
    }

    @Test
    void objectsAreSealedAndReadBackWithoutAnyKeyFromTheClient() {
        for (int size : new int[] {0, 1000, 64 * 1024 + 1, 2 * MIB + 99}) {
            String name = "round-trip-" + size;
            byte[] data = bytes(size);

            PutObjectResponse put = s3.putObject(request -> request.bucket(bucket).key(name)
                    .serverSideEncryption(ServerSideEncryption.AES256), RequestBody.fromBytes(data));

            assertThat(put.serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
            assertThat(put.eTag()).as("SSE-S3's ETag is the MD5, as AWS's").isEqualTo(etagOf(data));
            ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(request -> request.bucket(bucket).key(name));
            assertThat(got.asByteArray()).as("%d bytes", size).isEqualTo(data);
            assertThat(got.response().serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
            assertThat(s3.headObject(request -> request.bucket(bucket).key(name)).serverSideEncryption())
                    .isEqualTo(ServerSideEncryption.AES256);
        }
        byte[] data = bytes(3 * MIB);
        s3.putObject(request -> request.bucket(bucket).key("ranges").serverSideEncryption(ServerSideEncryption.AES256),
                RequestBody.fromBytes(data));
        for (int[] range : new int[][] {{0, 10}, {65_530, 65_540}, {MIB - 1, 2 * MIB + 1}, {3 * MIB - 1, 3 * MIB - 1}}) {
            assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("ranges")
                    .range("bytes=" + range[0] + "-" + range[1])).asByteArray())
                    .isEqualTo(Arrays.copyOfRange(data, range[0], range[1] + 1));
        }
    }

    @Test
    void customerKeysForAnSseS3ObjectAndUnsupportedAlgorithmsAreRefused() {
        s3.putObject(request -> request.bucket(bucket).key("managed").serverSideEncryption(ServerSideEncryption.AES256),
                RequestBody.fromString("managed"));

        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("managed")
                .sseCustomerAlgorithm("AES256").sseCustomerKey(customerKeyBase64).sseCustomerKeyMD5(customerKeyMd5)),
                400, "InvalidRequest");
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("kms")
                .serverSideEncryption(ServerSideEncryption.AWS_KMS_DSSE), RequestBody.fromString("x")), 501,
                "NotImplemented");
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("both")
                .serverSideEncryption(ServerSideEncryption.AES256).sseCustomerAlgorithm("AES256")
                .sseCustomerKey(customerKeyBase64).sseCustomerKeyMD5(customerKeyMd5), RequestBody.fromString("x")),
                400, "InvalidArgument");
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("other").overrideConfiguration(
                o -> o.putHeader("x-amz-server-side-encryption", "AES512")), RequestBody.fromString("x")),
                400, "InvalidArgument");
        for (String key : new String[] {"kms", "both", "other"}) {
            assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key)), 404);
        }
    }

    @Test
    void copiesGoBetweenSseS3SseCAndPlain() {
        byte[] data = bytes(MIB + 5);
        s3.putObject(request -> request.bucket(bucket).key("copy-managed").serverSideEncryption(ServerSideEncryption.AES256),
                RequestBody.fromBytes(data));
        s3.putObject(request -> request.bucket(bucket).key("copy-plain"), RequestBody.fromBytes(data));

        // SSE-S3 -> plain, plain -> SSE-S3
        assertThat(s3.copyObject(copy("copy-managed", "managed-to-plain").build()).serverSideEncryption()).isNull();
        assertThat(s3.headObject(request -> request.bucket(bucket).key("managed-to-plain")).serverSideEncryption())
                .isNull();
        assertThat(s3.copyObject(copy("copy-plain", "plain-to-managed").serverSideEncryption(ServerSideEncryption.AES256)
                .build()).serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
        // SSE-S3 -> SSE-C -> SSE-S3
        s3.copyObject(copy("copy-managed", "managed-to-customer").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(customerKeyBase64).sseCustomerKeyMD5(customerKeyMd5).build());
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("managed-to-customer")), 400);
        s3.copyObject(copy("managed-to-customer", "customer-to-managed").copySourceSSECustomerAlgorithm("AES256")
                .copySourceSSECustomerKey(customerKeyBase64).copySourceSSECustomerKeyMD5(customerKeyMd5)
                .serverSideEncryption(ServerSideEncryption.AES256).build());
        for (String key : new String[] {"managed-to-plain", "plain-to-managed", "customer-to-managed"}) {
            assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)).asByteArray()).as(key)
                    .isEqualTo(data);
        }
        // Onto itself: with AES256 it is re-encrypted with a new data key; with nothing changed it is refused, as in AWS
        s3.copyObject(copy("copy-managed", "copy-managed").serverSideEncryption(ServerSideEncryption.AES256)
                .metadataDirective(MetadataDirective.COPY).build());
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("copy-managed")).asByteArray())
                .isEqualTo(data);
        assertS3Error(() -> s3.copyObject(copy("copy-managed", "copy-managed").build()), 400, "InvalidRequest");
    }

    @Test
    void multipartUploadsSealEveryPartWithTheUploadsDataKey() {
        byte[] first = bytes(5 * MIB + 1);
        byte[] customerSource = bytes(300_000);
        s3.putObject(request -> request.bucket(bucket).key("mpu-source").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(customerKeyBase64).sseCustomerKeyMD5(customerKeyMd5), RequestBody.fromBytes(customerSource));
        CreateMultipartUploadResponse created = s3.createMultipartUpload(request -> request.bucket(bucket).key("mpu")
                .serverSideEncryption(ServerSideEncryption.AES256));
        assertThat(created.serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
        String uploadId = created.uploadId();

        UploadPartResponse part1 = s3.uploadPart(request -> request.bucket(bucket).key("mpu").uploadId(uploadId)
                .partNumber(1), RequestBody.fromBytes(first));
        assertThat(part1.serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
        assertThat(part1.eTag()).isEqualTo(etagOf(first));
        assertS3Error(() -> s3.uploadPart(request -> request.bucket(bucket).key("mpu").uploadId(uploadId).partNumber(3)
                .sseCustomerAlgorithm("AES256").sseCustomerKey(customerKeyBase64).sseCustomerKeyMD5(customerKeyMd5),
                RequestBody.fromString("x")), 400, "InvalidRequest");
        String part2 = s3.uploadPartCopy(request -> request.sourceBucket(bucket).sourceKey("mpu-source")
                .destinationBucket(bucket).destinationKey("mpu").uploadId(uploadId).partNumber(2)
                .copySourceSSECustomerAlgorithm("AES256").copySourceSSECustomerKey(customerKeyBase64)
                .copySourceSSECustomerKeyMD5(customerKeyMd5)).copyPartResult().eTag();
        CompleteMultipartUploadResponse completed = s3.completeMultipartUpload(request -> request.bucket(bucket)
                .key("mpu").uploadId(uploadId).multipartUpload(upload -> upload.parts(
                        CompletedPart.builder().partNumber(1).eTag(part1.eTag()).build(),
                        CompletedPart.builder().partNumber(2).eTag(part2).build())));

        assertThat(completed.serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
        byte[] whole = new byte[first.length + customerSource.length];
        System.arraycopy(first, 0, whole, 0, first.length);
        System.arraycopy(customerSource, 0, whole, first.length, customerSource.length);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("mpu")).asByteArray()).isEqualTo(whole);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("mpu").partNumber(2)).asByteArray())
                .isEqualTo(customerSource);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("mpu")
                .range("bytes=" + (first.length - 10) + "-" + (first.length + 10))).asByteArray())
                .isEqualTo(Arrays.copyOfRange(whole, first.length - 10, first.length + 11));
    }

    /** A bucket's default encryption seals the writes that ask for none; explicit SSE-C still wins. */
    @Test
    void theBucketsDefaultEncryptionSealsWritesThatAskForNone() {
        String encrypted = createBucket("sse-default");
        s3.putBucketEncryption(request -> request.bucket(encrypted).serverSideEncryptionConfiguration(configuration ->
                configuration.rules(rule -> rule.applyServerSideEncryptionByDefault(
                        encryption -> encryption.sseAlgorithm(ServerSideEncryption.AES256)))));
        byte[] data = bytes(100_000);

        assertThat(s3.putObject(request -> request.bucket(encrypted).key("put"), RequestBody.fromBytes(data))
                .serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
        assertThat(s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("copy-plain-source")
                .destinationBucket(encrypted).destinationKey("copied")).serverSideEncryption())
                .isEqualTo(ServerSideEncryption.AES256);
        assertThat(s3.createMultipartUpload(request -> request.bucket(encrypted).key("mpu")).serverSideEncryption())
                .isEqualTo(ServerSideEncryption.AES256);
        s3.putObject(request -> request.bucket(encrypted).key("customer").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(customerKeyBase64).sseCustomerKeyMD5(customerKeyMd5), RequestBody.fromBytes(data));
        assertS3Status(() -> s3.headObject(request -> request.bucket(encrypted).key("customer")), 400);
        var got = s3.getObjectAsBytes(request -> request.bucket(encrypted).key("put"));
        assertThat(got.asByteArray()).isEqualTo(data);
        assertThat(got.response().serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);

        s3.deleteBucketEncryption(request -> request.bucket(encrypted));
        assertThat(s3.putObject(request -> request.bucket(encrypted).key("after"), RequestBody.fromBytes(data))
                .serverSideEncryption()).isNull();
    }

    /** A random run of an SSE-S3 object's plaintext is in no data folder file; a plain object's is (the search works). */
    @Test
    void sealedContentIsNotReadableInTheDataFolder() throws IOException {
        Instant since = Instant.now().minusSeconds(2);
        byte[] smallSecret = bytes(2000);
        byte[] largeSecret = bytes(2 * MIB);
        byte[] largePlain = bytes(2 * MIB);
        s3.putObject(request -> request.bucket(bucket).key("disk-small").serverSideEncryption(ServerSideEncryption.AES256),
                RequestBody.fromBytes(smallSecret));
        s3.putObject(request -> request.bucket(bucket).key("disk-large").serverSideEncryption(ServerSideEncryption.AES256),
                RequestBody.fromBytes(largeSecret));
        s3.putObject(request -> request.bucket(bucket).key("disk-plain"), RequestBody.fromBytes(largePlain));

        List<Path> roots = Stream.of(dataDir(), dataDir().resolveSibling(dataDir().getFileName() + "-peers")).toList();
        assertThat(DataFolderScan.found(roots, since, Arrays.copyOfRange(largePlain, MIB + 7, MIB + 71)))
                .as("a plain object's bytes are found (the search works)").isTrue();
        assertThat(DataFolderScan.found(roots, since, Arrays.copyOfRange(smallSecret, 500, 564))).isFalse();
        assertThat(DataFolderScan.found(roots, since, Arrays.copyOfRange(largeSecret, MIB + 7, MIB + 71))).isFalse();
    }

    private CopyObjectRequest.Builder copy(String from, String to) {
        return CopyObjectRequest.builder().sourceBucket(bucket).sourceKey(from).destinationBucket(bucket)
                .destinationKey(to);
    }

    private static String etagOf(byte[] data) {
        return '"' + HexFormat.of().formatHex(md5(data)) + '"';
    }

    private static byte[] bytes(int size) {
        byte[] bytes = new byte[size];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    private static byte[] md5(byte[] bytes) {
        return Digests.md5().digest(bytes);
    }
}
