package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * Server-side encryption, which Hangar does not implement: every operation that takes SSE-S3, SSE-KMS or SSE-C
 * headers answers 501 NotImplemented naming the header, and stores nothing. Before, a PUT with a customer key
 * answered 200 and a GET without the key returned the object in the clear.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ServerSideEncryptionIT extends AbstractS3IT {
    /** A customer key as SSE-C sends it: 256 bits, base64, with the base64 MD5 of the raw bytes. */
    private static final byte[] CUSTOMER_KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final String KEY_BASE64 = Base64.getEncoder().encodeToString(CUSTOMER_KEY);
    private static final String KEY_MD5 = Base64.getEncoder().encodeToString(md5(CUSTOMER_KEY));

    private String bucket;

    @BeforeAll
    void createBucketWithAnObject() {
        bucket = createBucket("sse");
        s3.putObject(request -> request.bucket(bucket).key("plain"), RequestBody.fromString("plain text"));
    }

    @Test
    void putObjectWithAnyKindOfEncryptionIsNotImplementedAndStoresNothing() {
        assertRefused(() -> put("sse-s3", request -> request.serverSideEncryption(ServerSideEncryption.AES256)),
                "x-amz-server-side-encryption");
        assertRefused(() -> put("sse-kms", request -> request.serverSideEncryption(ServerSideEncryption.AWS_KMS)
                .ssekmsKeyId("arn:aws:kms:us-east-1:111122223333:key/example").ssekmsEncryptionContext("e30=")),
                "x-amz-server-side-encryption");
        assertRefused(() -> put("sse-c", this::customerKey), "x-amz-server-side-encryption-customer-");
        assertRefused(() -> put("bucket-key", request -> request.bucketKeyEnabled(true)),
                "x-amz-server-side-encryption-bucket-key-enabled");

        for (String key : new String[] {"sse-s3", "sse-kms", "sse-c", "bucket-key"}) {
            assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key)), 404);
        }
    }

    @Test
    void copyObjectToOrFromAnEncryptedObjectIsNotImplemented() {
        assertRefused(() -> s3.copyObject(copy("copy-sse").serverSideEncryption(ServerSideEncryption.AES256).build()),
                "x-amz-server-side-encryption");
        assertRefused(() -> s3.copyObject(copy("copy-sse-c").sseCustomerAlgorithm("AES256").sseCustomerKey(KEY_BASE64)
                .sseCustomerKeyMD5(KEY_MD5).build()), "x-amz-server-side-encryption-customer-");
        assertRefused(() -> s3.copyObject(copy("copy-source-sse-c").copySourceSSECustomerAlgorithm("AES256")
                .copySourceSSECustomerKey(KEY_BASE64).copySourceSSECustomerKeyMD5(KEY_MD5).build()),
                "x-amz-copy-source-server-side-encryption-customer-");

        for (String key : new String[] {"copy-sse", "copy-sse-c", "copy-source-sse-c"}) {
            assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key)), 404);
        }
    }

    @Test
    void multipartUploadsWithEncryptionAreNotImplemented() {
        assertRefused(() -> s3.createMultipartUpload(CreateMultipartUploadRequest.builder().bucket(bucket)
                .key("mpu-sse").serverSideEncryption(ServerSideEncryption.AWS_KMS).build()),
                "x-amz-server-side-encryption");
        assertRefused(() -> s3.createMultipartUpload(CreateMultipartUploadRequest.builder().bucket(bucket)
                .key("mpu-sse-c").sseCustomerAlgorithm("AES256").sseCustomerKey(KEY_BASE64).sseCustomerKeyMD5(KEY_MD5)
                .build()), "x-amz-server-side-encryption-customer-");
        assertThat(s3.listMultipartUploads(request -> request.bucket(bucket)).uploads()).isEmpty();

        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key("mpu")).uploadId();
        assertRefused(() -> s3.uploadPart(UploadPartRequest.builder().bucket(bucket).key("mpu").uploadId(uploadId)
                .partNumber(1).sseCustomerAlgorithm("AES256").sseCustomerKey(KEY_BASE64).sseCustomerKeyMD5(KEY_MD5)
                .build(), RequestBody.fromString("part")), "x-amz-server-side-encryption-customer-");
        assertRefused(() -> s3.uploadPartCopy(UploadPartCopyRequest.builder().sourceBucket(bucket).sourceKey("plain")
                .destinationBucket(bucket).destinationKey("mpu").uploadId(uploadId).partNumber(2)
                .copySourceSSECustomerAlgorithm("AES256").copySourceSSECustomerKey(KEY_BASE64)
                .copySourceSSECustomerKeyMD5(KEY_MD5).build()), "x-amz-copy-source-server-side-encryption-customer-");

        assertThat(s3.listParts(request -> request.bucket(bucket).key("mpu").uploadId(uploadId)).parts()).isEmpty();
        s3.abortMultipartUpload(request -> request.bucket(bucket).key("mpu").uploadId(uploadId));
    }

    /** A GET or HEAD with a customer key would claim the object was encrypted with it: it was not. */
    @Test
    void readingWithACustomerKeyIsNotImplemented() {
        assertRefused(() -> s3.getObjectAsBytes(GetObjectRequest.builder().bucket(bucket).key("plain")
                .sseCustomerAlgorithm("AES256").sseCustomerKey(KEY_BASE64).sseCustomerKeyMD5(KEY_MD5).build()),
                "x-amz-server-side-encryption-customer-");
        assertS3Status(() -> s3.headObject(HeadObjectRequest.builder().bucket(bucket).key("plain")
                .sseCustomerAlgorithm("AES256").sseCustomerKey(KEY_BASE64).sseCustomerKeyMD5(KEY_MD5).build()), 501);

        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("plain")).asUtf8String())
                .isEqualTo("plain text");
    }

    private void put(String key, Consumer<PutObjectRequest.Builder> encryption) {
        PutObjectRequest.Builder request = PutObjectRequest.builder().bucket(bucket).key(key);
        encryption.accept(request);
        s3.putObject(request.build(), RequestBody.fromString("secret"));
    }

    private void customerKey(PutObjectRequest.Builder request) {
        request.sseCustomerAlgorithm("AES256").sseCustomerKey(KEY_BASE64).sseCustomerKeyMD5(KEY_MD5);
    }

    private CopyObjectRequest.Builder copy(String key) {
        return CopyObjectRequest.builder().sourceBucket(bucket).sourceKey("plain").destinationBucket(bucket)
                .destinationKey(key);
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String header) {
        var error = assertS3Error(call, 501, "NotImplemented");
        assertThat(error.awsErrorDetails().errorMessage()).as("the message names the header").contains(header)
                .contains("not implemented by Hangar");
    }

    private static byte[] md5(byte[] bytes) {
        try {
            return MessageDigest.getInstance("MD5").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
