package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * The server-side encryption Hangar does not implement, S3 Bucket Keys and DSSE-KMS: every operation that takes
 * them answers 501 NotImplemented naming the header or the feature, and stores nothing; so do encryption headers
 * sent to an operation that does not take them. (SSE-C: {@link CustomerKeyEncryptionIT}; SSE-S3: {@link
 * ManagedKeyEncryptionIT}; SSE-KMS: {@link KmsKeyEncryptionIT}.)
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ServerSideEncryptionIT extends AbstractS3IT {
    private String bucket;

    @BeforeAll
    void createBucketWithAnObject() {
        bucket = createBucket("sse");
        s3.putObject(request -> request.bucket(bucket).key("plain"), RequestBody.fromString("plain text"));
    }

    @Test
    void putObjectWithDsseKmsOrBucketKeysIsNotImplementedAndStoresNothing() {
        assertRefused(() -> put("sse-kms", request -> request.serverSideEncryption(ServerSideEncryption.AWS_KMS_DSSE)),
                "aws:kms:dsse");
        assertRefused(() -> put("bucket-key", request -> request.bucketKeyEnabled(true)),
                "x-amz-server-side-encryption-bucket-key-enabled");

        for (String key : new String[] {"sse-kms", "bucket-key"}) {
            assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key)), 404);
        }
    }

    @Test
    void copiesAndUploadsWithDsseKmsAreNotImplemented() {
        assertRefused(() -> s3.copyObject(CopyObjectRequest.builder().sourceBucket(bucket).sourceKey("plain")
                .destinationBucket(bucket).destinationKey("copy-sse").serverSideEncryption(ServerSideEncryption.AWS_KMS_DSSE)
                .build()), "DSSE-KMS");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("copy-sse")), 404);

        assertRefused(() -> s3.createMultipartUpload(CreateMultipartUploadRequest.builder().bucket(bucket)
                .key("mpu-sse").serverSideEncryption(ServerSideEncryption.AWS_KMS_DSSE).build()),
                "x-amz-server-side-encryption");
        assertThat(s3.listMultipartUploads(request -> request.bucket(bucket)).uploads()).isEmpty();
    }

    @Test
    void customerKeysOnOperationsThatDoNotTakeThemAreNotImplemented() {
        assertRefused(() -> s3.deleteObject(request -> request.bucket(bucket).key("plain").overrideConfiguration(
                        o -> o.putHeader("x-amz-server-side-encryption-customer-algorithm", "AES256"))),
                "x-amz-server-side-encryption-customer-algorithm");

        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("plain")).asUtf8String())
                .isEqualTo("plain text");
    }

    private void put(String key, Consumer<PutObjectRequest.Builder> encryption) {
        PutObjectRequest.Builder request = PutObjectRequest.builder().bucket(bucket).key(key);
        encryption.accept(request);
        s3.putObject(request.build(), RequestBody.fromString("secret"));
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String header) {
        var error = assertS3Error(call, 501, "NotImplemented");
        assertThat(error.awsErrorDetails().errorMessage()).as("the message names the header").contains(header)
                .contains("not implemented by Hangar");
    }
}
