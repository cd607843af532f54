package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.DataFolderScan;
import dev.hangar.distribution.support.Digests;

import java.io.IOException;
import java.nio.file.Files;
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
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * Server-side encryption with customer-provided keys (SSE-C) through the AWS SDK: objects inline and in blocks,
 * ranges, copies between every combination of plain and SSE-C, multipart uploads with parts uploaded and copied,
 * AWS's errors, and what is on disk.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CustomerKeyEncryptionIT extends AbstractS3IT {
    private static final Random RANDOM = new Random();

    private final CustomerKey key = CustomerKey.random();
    private final CustomerKey otherKey = CustomerKey.random();
    private String bucket;

    /** A customer key as the SDK sends it: 256 bits in base64, with the base64 MD5 of the raw bytes. */
    record CustomerKey(String base64, String md5) {
        static CustomerKey random() {
            byte[] key = bytes(32);
            return new CustomerKey(Base64.getEncoder().encodeToString(key), Base64.getEncoder().encodeToString(CustomerKeyEncryptionIT.md5(key)));
        }
    }

    @BeforeAll
    void createBucket() {
        bucket = createBucket("sse-c");
    }

    @Test
    void objectsInlineAndInBlocksComeBackOnlyWithTheirKey() {
        for (int size : new int[] {0, 1, 1000, INLINE_THRESHOLD, 64 * 1024, 64 * 1024 + 1, 3 * MIB + 12_345}) {
            String name = "round-trip-" + size;
            byte[] data = bytes(size);

            PutObjectResponse put = s3.putObject(put(name).sseCustomerAlgorithm("AES256").sseCustomerKey(key.base64())
                    .sseCustomerKeyMD5(key.md5()).build(), RequestBody.fromBytes(data));

            assertThat(put.sseCustomerAlgorithm()).isEqualTo("AES256");
            assertThat(put.sseCustomerKeyMD5()).isEqualTo(key.md5());
            assertThat(put.eTag()).as("the tag of SSE-C content is not its MD5")
                    .isNotEqualTo('"' + HexFormat.of().formatHex(md5(data)) + '"').matches("\"[0-9a-f]{32}\"");
            ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(get(name, key).build());
            assertThat(got.asByteArray()).as("%d bytes", size).isEqualTo(data);
            assertThat(got.response().sseCustomerKeyMD5()).isEqualTo(key.md5());
            assertThat(got.response().eTag()).isEqualTo(put.eTag());
            HeadObjectResponse head = s3.headObject(head(name, key).build());
            assertThat(head.contentLength()).isEqualTo(size);
            assertThat(head.sseCustomerAlgorithm()).isEqualTo("AES256");
            assertThat(s3.listObjectsV2(request -> request.bucket(bucket).prefix(name)).contents())
                    .singleElement().satisfies(listed -> assertThat(listed.size()).isEqualTo(size));
        }
    }

    @Test
    void readsWithoutTheKeyOrWithAnotherAreRefused() {
        s3.putObject(put("refusals").sseCustomerAlgorithm("AES256").sseCustomerKey(key.base64())
                .sseCustomerKeyMD5(key.md5()).build(), RequestBody.fromString("secret"));
        s3.putObject(put("plain").build(), RequestBody.fromString("plain"));

        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("refusals")), 400,
                "InvalidRequest");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("refusals")), 400);
        assertS3Error(() -> s3.getObjectAsBytes(get("refusals", otherKey).build()), 403, "AccessDenied");
        assertS3Status(() -> s3.headObject(head("refusals", otherKey).build()), 403);
        assertS3Error(() -> s3.getObjectAsBytes(get("plain", key).build()), 400, "InvalidRequest");
        assertS3Error(() -> s3.getObjectAttributes(request -> request.bucket(bucket).key("refusals")
                .objectAttributes(software.amazon.awssdk.services.s3.model.ObjectAttributes.OBJECT_SIZE)), 400,
                "InvalidRequest");
        assertThat(s3.getObjectAttributes(request -> request.bucket(bucket).key("refusals")
                .objectAttributes(software.amazon.awssdk.services.s3.model.ObjectAttributes.OBJECT_SIZE)
                .sseCustomerAlgorithm("AES256").sseCustomerKey(key.base64()).sseCustomerKeyMD5(key.md5()))
                .objectSize()).isEqualTo(6);
    }

    @Test
    void malformedKeysGetS3sErrorsAndStoreNothing() {
        assertS3Error(() -> s3.putObject(put("bad").sseCustomerAlgorithm("AES128").sseCustomerKey(key.base64())
                .sseCustomerKeyMD5(key.md5()).build(), RequestBody.fromString("x")), 400,
                "InvalidEncryptionAlgorithmError");
        assertS3Error(() -> s3.putObject(put("bad").sseCustomerAlgorithm("AES256").sseCustomerKey(key.base64())
                .sseCustomerKeyMD5(otherKey.md5()).build(), RequestBody.fromString("x")), 400, "InvalidArgument");
        String shortKey = Base64.getEncoder().encodeToString(bytes(16));
        assertS3Error(() -> s3.putObject(put("bad").sseCustomerAlgorithm("AES256").sseCustomerKey(shortKey)
                .sseCustomerKeyMD5(Base64.getEncoder().encodeToString(md5(Base64.getDecoder().decode(shortKey))))
                .build(), RequestBody.fromString("x")), 400, "InvalidArgument");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("bad")), 404);
    }

    @Test
    void rangedReadsDecryptWhatTheyTouch() {
        int size = 2 * MIB + 100_000;
        byte[] data = bytes(size);
        s3.putObject(put("ranges").sseCustomerAlgorithm("AES256").sseCustomerKey(key.base64())
                .sseCustomerKeyMD5(key.md5()).build(), RequestBody.fromBytes(data));
        int segment = 64 * 1024;
        int[][] ranges = {{0, 0}, {0, segment - 1}, {segment - 1, segment}, {segment, 3 * segment + 17},
                {MIB - 5, MIB + 5}, {size - 1, size - 1}, {size - segment - 3, size - 1}, {12_345, 1_234_567}};
        for (int[] range : ranges) {
            byte[] got = s3.getObjectAsBytes(get("ranges", key).range("bytes=" + range[0] + "-" + range[1]).build())
                    .asByteArray();
            assertThat(got).as("bytes %d-%d", range[0], range[1])
                    .isEqualTo(Arrays.copyOfRange(data, range[0], range[1] + 1));
        }
        byte[] suffix = s3.getObjectAsBytes(get("ranges", key).range("bytes=-70000").build()).asByteArray();
        assertThat(suffix).isEqualTo(Arrays.copyOfRange(data, size - 70_000, size));
    }

    @Test
    void copiesBetweenEveryCombinationOfPlainAndCustomerKeys() {
        byte[] data = bytes(MIB + 777);
        s3.putObject(put("copy-plain").build(), RequestBody.fromBytes(data));
        s3.putObject(put("copy-sealed").sseCustomerAlgorithm("AES256").sseCustomerKey(key.base64())
                .sseCustomerKeyMD5(key.md5()).build(), RequestBody.fromBytes(data));

        // plain -> SSE-C
        CopyObjectResponse sealed = s3.copyObject(copy("copy-plain", "to-sealed").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(otherKey.base64()).sseCustomerKeyMD5(otherKey.md5()).build());
        assertThat(sealed.sseCustomerKeyMD5()).isEqualTo(otherKey.md5());
        assertThat(s3.getObjectAsBytes(get("to-sealed", otherKey).build()).asByteArray()).isEqualTo(data);
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("to-sealed")), 400);
        // SSE-C -> plain
        s3.copyObject(copy("copy-sealed", "to-plain").copySourceSSECustomerAlgorithm("AES256")
                .copySourceSSECustomerKey(key.base64()).copySourceSSECustomerKeyMD5(key.md5()).build());
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("to-plain")).asByteArray()).isEqualTo(data);
        assertThat(s3.headObject(request -> request.bucket(bucket).key("to-plain")).eTag())
                .isEqualTo('"' + HexFormat.of().formatHex(md5(data)) + '"');
        // SSE-C -> SSE-C with another key
        s3.copyObject(copy("copy-sealed", "to-other-key").copySourceSSECustomerAlgorithm("AES256")
                .copySourceSSECustomerKey(key.base64()).copySourceSSECustomerKeyMD5(key.md5())
                .sseCustomerAlgorithm("AES256").sseCustomerKey(otherKey.base64()).sseCustomerKeyMD5(otherKey.md5())
                .build());
        assertThat(s3.getObjectAsBytes(get("to-other-key", otherKey).build()).asByteArray()).isEqualTo(data);
        assertS3Status(() -> s3.headObject(head("to-other-key", key).build()), 403);
        // SSE-C onto itself with a new key: a key rotation
        s3.copyObject(copy("to-other-key", "to-other-key").copySourceSSECustomerAlgorithm("AES256")
                .copySourceSSECustomerKey(otherKey.base64()).copySourceSSECustomerKeyMD5(otherKey.md5())
                .sseCustomerAlgorithm("AES256").sseCustomerKey(key.base64()).sseCustomerKeyMD5(key.md5())
                .metadataDirective(MetadataDirective.COPY).build());
        assertThat(s3.getObjectAsBytes(get("to-other-key", key).build()).asByteArray()).isEqualTo(data);

        // The source's key missing, or another
        assertS3Error(() -> s3.copyObject(copy("copy-sealed", "never").build()), 400, "InvalidRequest");
        assertS3Error(() -> s3.copyObject(copy("copy-sealed", "never").copySourceSSECustomerAlgorithm("AES256")
                .copySourceSSECustomerKey(otherKey.base64()).copySourceSSECustomerKeyMD5(otherKey.md5()).build()),
                403, "AccessDenied");
        assertS3Error(() -> s3.copyObject(copy("copy-plain", "never").copySourceSSECustomerAlgorithm("AES256")
                .copySourceSSECustomerKey(key.base64()).copySourceSSECustomerKeyMD5(key.md5()).build()), 400,
                "InvalidRequest");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("never")), 404);
    }

    @Test
    void multipartUploadsSealEveryPartWithTheUploadsKey() {
        byte[] first = bytes(5 * MIB + 3);
        byte[] plainSource = bytes(5 * MIB + 11);
        byte[] sealedSource = bytes(700_000);
        s3.putObject(put("mpu-plain-source").build(), RequestBody.fromBytes(plainSource));
        s3.putObject(put("mpu-sealed-source").sseCustomerAlgorithm("AES256").sseCustomerKey(otherKey.base64())
                .sseCustomerKeyMD5(otherKey.md5()).build(), RequestBody.fromBytes(sealedSource));
        String uploadId = s3.createMultipartUpload(CreateMultipartUploadRequest.builder().bucket(bucket).key("mpu")
                .sseCustomerAlgorithm("AES256").sseCustomerKey(key.base64()).sseCustomerKeyMD5(key.md5()).build())
                .uploadId();

        UploadPartResponse part1 = s3.uploadPart(part("mpu", uploadId, 1).sseCustomerAlgorithm("AES256")
                .sseCustomerKey(key.base64()).sseCustomerKeyMD5(key.md5()).build(), RequestBody.fromBytes(first));
        assertThat(part1.sseCustomerKeyMD5()).isEqualTo(key.md5());
        // A part without the upload's key, or with another, is refused
        assertS3Error(() -> s3.uploadPart(part("mpu", uploadId, 9).build(), RequestBody.fromString("x")), 400,
                "InvalidRequest");
        assertS3Error(() -> s3.uploadPart(part("mpu", uploadId, 9).sseCustomerAlgorithm("AES256")
                .sseCustomerKey(otherKey.base64()).sseCustomerKeyMD5(otherKey.md5()).build(),
                RequestBody.fromString("x")), 400, "InvalidRequest");
        // Parts copied from a plain object and from one sealed with another key (a range of it): the upload's key
        // comes with them too, and without it the copy is refused
        assertS3Error(() -> s3.uploadPartCopy(partCopy("mpu", uploadId, 2, "mpu-plain-source").build()), 400,
                "InvalidRequest");
        String part2 = s3.uploadPartCopy(partCopy("mpu", uploadId, 2, "mpu-plain-source").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(key.base64()).sseCustomerKeyMD5(key.md5()).build()).copyPartResult().eTag();
        String part3 = s3.uploadPartCopy(partCopy("mpu", uploadId, 3, "mpu-sealed-source").copySourceRange("bytes=100-599999")
                .copySourceSSECustomerAlgorithm("AES256").copySourceSSECustomerKey(otherKey.base64())
                .copySourceSSECustomerKeyMD5(otherKey.md5()).sseCustomerAlgorithm("AES256")
                .sseCustomerKey(key.base64()).sseCustomerKeyMD5(key.md5()).build()).copyPartResult().eTag();
        assertThat(s3.listParts(request -> request.bucket(bucket).key("mpu").uploadId(uploadId)).parts())
                .extracting(software.amazon.awssdk.services.s3.model.Part::size)
                .containsExactly((long) first.length, (long) plainSource.length, 599_900L);

        s3.completeMultipartUpload(request -> request.bucket(bucket).key("mpu").uploadId(uploadId)
                .multipartUpload(upload -> upload.parts(CompletedPart.builder().partNumber(1).eTag(part1.eTag()).build(),
                        CompletedPart.builder().partNumber(2).eTag(part2).build(),
                        CompletedPart.builder().partNumber(3).eTag(part3).build())));

        byte[] whole = concat(first, plainSource, Arrays.copyOfRange(sealedSource, 100, 600_000));
        assertThat(s3.getObjectAsBytes(get("mpu", key).build()).asByteArray()).isEqualTo(whole);
        int from = first.length - 1000;
        int to = first.length + plainSource.length + 5000;
        assertThat(s3.getObjectAsBytes(get("mpu", key).range("bytes=" + from + "-" + to).build()).asByteArray())
                .as("a range across three parts").isEqualTo(Arrays.copyOfRange(whole, from, to + 1));
        assertThat(s3.getObjectAsBytes(get("mpu", key).partNumber(2).build()).asByteArray()).isEqualTo(plainSource);
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("mpu")), 400);
        assertThat(s3.headObject(head("mpu", key).build()).contentLength()).isEqualTo(whole.length);

        // An SSE-C object copied as a part of a plain upload
        String plainUpload = s3.createMultipartUpload(request -> request.bucket(bucket).key("mpu-plain")).uploadId();
        String copied = s3.uploadPartCopy(partCopy("mpu-plain", plainUpload, 1, "mpu-sealed-source")
                .copySourceSSECustomerAlgorithm("AES256").copySourceSSECustomerKey(otherKey.base64())
                .copySourceSSECustomerKeyMD5(otherKey.md5()).build()).copyPartResult().eTag();
        assertS3Error(() -> s3.uploadPart(part("mpu-plain", plainUpload, 2).sseCustomerAlgorithm("AES256")
                .sseCustomerKey(key.base64()).sseCustomerKeyMD5(key.md5()).build(), RequestBody.fromString("x")),
                400, "InvalidRequest");
        s3.completeMultipartUpload(request -> request.bucket(bucket).key("mpu-plain").uploadId(plainUpload)
                .multipartUpload(upload -> upload.parts(CompletedPart.builder().partNumber(1).eTag(copied).build())));
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("mpu-plain")).asByteArray())
                .isEqualTo(sealedSource);
    }

    /**
     * What is on disk: a random run of an SSE-C object's plaintext is nowhere in any node's data folder (RocksDB's
     * files, where inline objects live, and the block files), while the same run of a plain object is found, which
     * shows that the search would find it.
     */
    @Test
    void sealedContentIsNotReadableInTheDataFolder() throws IOException {
        Instant since = Instant.now().minusSeconds(2);
        byte[] smallSecret = bytes(2000);
        byte[] largeSecret = bytes(2 * MIB);
        byte[] smallPlain = bytes(2000);
        byte[] largePlain = bytes(2 * MIB);
        for (var object : List.of(new Object[] {"disk-small", smallSecret}, new Object[] {"disk-large", largeSecret})) {
            s3.putObject(put((String) object[0]).sseCustomerAlgorithm("AES256").sseCustomerKey(key.base64())
                    .sseCustomerKeyMD5(key.md5()).build(), RequestBody.fromBytes((byte[]) object[1]));
        }
        s3.putObject(put("disk-small-plain").build(), RequestBody.fromBytes(smallPlain));
        s3.putObject(put("disk-large-plain").build(), RequestBody.fromBytes(largePlain));

        List<Path> roots = Stream.of(dataDir(), dataDir().resolveSibling(dataDir().getFileName() + "-peers"))
                .filter(Files::isDirectory).toList();
        assertThat(DataFolderScan.found(roots, since, Arrays.copyOfRange(smallPlain, 1000, 1064)))
                .as("a plain inline object's bytes are found (the search works)").isTrue();
        assertThat(DataFolderScan.found(roots, since, Arrays.copyOfRange(largePlain, MIB + 5, MIB + 69)))
                .as("a plain object's block bytes are found (the search works)").isTrue();
        assertThat(DataFolderScan.found(roots, since, Arrays.copyOfRange(smallSecret, 1000, 1064))).isFalse();
        assertThat(DataFolderScan.found(roots, since, Arrays.copyOfRange(largeSecret, MIB + 5, MIB + 69))).isFalse();
    }

    private PutObjectRequest.Builder put(String name) {
        return PutObjectRequest.builder().bucket(bucket).key(name);
    }

    private GetObjectRequest.Builder get(String name, CustomerKey customer) {
        return GetObjectRequest.builder().bucket(bucket).key(name).sseCustomerAlgorithm("AES256")
                .sseCustomerKey(customer.base64()).sseCustomerKeyMD5(customer.md5());
    }

    private HeadObjectRequest.Builder head(String name, CustomerKey customer) {
        return HeadObjectRequest.builder().bucket(bucket).key(name).sseCustomerAlgorithm("AES256")
                .sseCustomerKey(customer.base64()).sseCustomerKeyMD5(customer.md5());
    }

    private CopyObjectRequest.Builder copy(String from, String to) {
        return CopyObjectRequest.builder().sourceBucket(bucket).sourceKey(from).destinationBucket(bucket)
                .destinationKey(to);
    }

    private UploadPartRequest.Builder part(String name, String uploadId, int number) {
        return UploadPartRequest.builder().bucket(bucket).key(name).uploadId(uploadId).partNumber(number);
    }

    private UploadPartCopyRequest.Builder partCopy(String name, String uploadId, int number, String source) {
        return UploadPartCopyRequest.builder().sourceBucket(bucket).sourceKey(source).destinationBucket(bucket)
                .destinationKey(name).uploadId(uploadId).partNumber(number);
    }

    private static byte[] concat(byte[]... arrays) {
        int length = Arrays.stream(arrays).mapToInt(array -> array.length).sum();
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] array : arrays) {
            System.arraycopy(array, 0, all, at, array.length);
            at += array.length;
        }
        return all;
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
