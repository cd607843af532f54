package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.Digests;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * Every combination of encryption modes — plain, SSE-C, SSE-S3, SSE-KMS — for CopyObject (source mode × target
 * mode) and for UploadPartCopy (source object's mode × upload's mode): the copy's content reads back through the
 * target's mode and says it is in that mode, and without the target's customer key an SSE-C target refuses a read.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class EncryptionCombinationsIT extends AbstractS3IT {
    private static final Random RANDOM = new Random();
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");

    /** One encryption mode, as a client asks for it on each kind of request. */
    enum Mode { PLAIN, SSE_C, SSE_S3, SSE_KMS }

    private final byte[] customerKey = bytes(32);
    private final String keyBase64 = Base64.getEncoder().encodeToString(customerKey);
    private final String keyMd5 = Base64.getEncoder().encodeToString(Digests.md5().digest(customerKey));
    private String kmsKeyId;
    private String bucket;

    @BeforeAll
    void createBucketAndKmsKey() {
        bucket = createBucket("sse-combos");
        AdminApi.Response created = new AdminApi(managementEndpoint(), http)
                .post("/actuator/kmskeys", Map.of("description", "EncryptionCombinationsIT"));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        Matcher id = ID.matcher(created.body());
        assertThat(id.find()).isTrue();
        kmsKeyId = id.group(1);
    }

    @Test
    void copyObjectGoesFromEveryModeToEveryMode() {
        byte[] data = bytes(300_000);
        List<String> checked = new ArrayList<>();
        for (Mode source : Mode.values()) {
            String sourceKey = "copy-source-" + source;
            s3.putObject(put(sourceKey, source).build(), RequestBody.fromBytes(data));
            for (Mode target : Mode.values()) {
                String targetKey = "copy-" + source + "-to-" + target;
                CopyObjectRequest.Builder copy = CopyObjectRequest.builder().sourceBucket(bucket).sourceKey(sourceKey)
                        .destinationBucket(bucket).destinationKey(targetKey);
                if (source == Mode.SSE_C) {
                    copy.copySourceSSECustomerAlgorithm("AES256").copySourceSSECustomerKey(keyBase64)
                            .copySourceSSECustomerKeyMD5(keyMd5);
                }
                switch (target) {
                    case PLAIN -> { }
                    case SSE_C -> copy.sseCustomerAlgorithm("AES256").sseCustomerKey(keyBase64).sseCustomerKeyMD5(keyMd5);
                    case SSE_S3 -> copy.serverSideEncryption(ServerSideEncryption.AES256);
                    case SSE_KMS -> copy.serverSideEncryption(ServerSideEncryption.AWS_KMS).ssekmsKeyId(kmsKeyId);
                }
                s3.copyObject(copy.build());
                assertReadsBack(targetKey, target, data, source + " -> " + target);
                checked.add(source + "->" + target);
            }
        }
        assertThat(checked).hasSize(16);
    }

    @Test
    void uploadPartCopyGoesFromEveryModeIntoUploadsOfEveryMode() {
        byte[] data = bytes(200_000);
        for (Mode source : Mode.values()) {
            s3.putObject(put("part-source-" + source, source).build(), RequestBody.fromBytes(data));
        }
        // Each source mode into an upload of each mode: a range of it copied as the one part, completed, read back
        List<String> checked = new ArrayList<>();
        for (Mode source : Mode.values()) {
            for (Mode target : Mode.values()) {
                String key = "part-" + source + "-into-" + target;
                CreateMultipartUploadRequest.Builder create = CreateMultipartUploadRequest.builder().bucket(bucket)
                        .key(key);
                switch (target) {
                    case PLAIN -> { }
                    case SSE_C -> create.sseCustomerAlgorithm("AES256").sseCustomerKey(keyBase64).sseCustomerKeyMD5(keyMd5);
                    case SSE_S3 -> create.serverSideEncryption(ServerSideEncryption.AES256);
                    case SSE_KMS -> create.serverSideEncryption(ServerSideEncryption.AWS_KMS).ssekmsKeyId(kmsKeyId);
                }
                String uploadId = s3.createMultipartUpload(create.build()).uploadId();
                UploadPartCopyRequest.Builder copy = UploadPartCopyRequest.builder().sourceBucket(bucket)
                        .sourceKey("part-source-" + source).destinationBucket(bucket).destinationKey(key)
                        .uploadId(uploadId).partNumber(1).copySourceRange("bytes=1000-149999");
                if (source == Mode.SSE_C) {
                    copy.copySourceSSECustomerAlgorithm("AES256").copySourceSSECustomerKey(keyBase64)
                            .copySourceSSECustomerKeyMD5(keyMd5);
                }
                if (target == Mode.SSE_C) {
                    copy.sseCustomerAlgorithm("AES256").sseCustomerKey(keyBase64).sseCustomerKeyMD5(keyMd5);
                }
                String etag = s3.uploadPartCopy(copy.build()).copyPartResult().eTag();
                s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
                        .multipartUpload(upload -> upload.parts(CompletedPart.builder().partNumber(1).eTag(etag)
                                .build())));
                assertReadsBack(key, target, Arrays.copyOfRange(data, 1000, 150_000), source + " into " + target);
                checked.add(source + "->" + target);
            }
        }
        assertThat(checked).hasSize(16);
    }

    private PutObjectRequest.Builder put(String key, Mode mode) {
        PutObjectRequest.Builder put = PutObjectRequest.builder().bucket(bucket).key(key);
        return switch (mode) {
            case PLAIN -> put;
            case SSE_C -> put.sseCustomerAlgorithm("AES256").sseCustomerKey(keyBase64).sseCustomerKeyMD5(keyMd5);
            case SSE_S3 -> put.serverSideEncryption(ServerSideEncryption.AES256);
            case SSE_KMS -> put.serverSideEncryption(ServerSideEncryption.AWS_KMS).ssekmsKeyId(kmsKeyId);
        };
    }

    /** The object reads back as {@code data} through its mode, and HEAD says it is in that mode. */
    private void assertReadsBack(String key, Mode mode, byte[] data, String what) {
        GetObjectRequest.Builder get = GetObjectRequest.builder().bucket(bucket).key(key);
        HeadObjectRequest.Builder head = HeadObjectRequest.builder().bucket(bucket).key(key);
        if (mode == Mode.SSE_C) {
            get.sseCustomerAlgorithm("AES256").sseCustomerKey(keyBase64).sseCustomerKeyMD5(keyMd5);
            head.sseCustomerAlgorithm("AES256").sseCustomerKey(keyBase64).sseCustomerKeyMD5(keyMd5);
            assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key)), 400);
        }
        assertThat(s3.getObjectAsBytes(get.build()).asByteArray()).as(what).isEqualTo(data);
        var headed = s3.headObject(head.build());
        switch (mode) {
            case PLAIN -> assertThat(headed.serverSideEncryption()).as(what).isNull();
            case SSE_C -> assertThat(headed.sseCustomerAlgorithm()).as(what).isEqualTo("AES256");
            case SSE_S3 -> assertThat(headed.serverSideEncryption()).as(what).isEqualTo(ServerSideEncryption.AES256);
            case SSE_KMS -> assertThat(headed.ssekmsKeyId()).as(what).endsWith(kmsKeyId);
        }
    }

    private static byte[] bytes(int size) {
        byte[] bytes = new byte[size];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
