package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ObjectAttributes;
import software.amazon.awssdk.services.s3.model.ObjectStorageClass;
import software.amazon.awssdk.services.s3.model.ObjectVersionStorageClass;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * Hangar stores one storage class, STANDARD: a write that asks for any other (a real S3 class it does not have,
 * or a name S3 does not know) is refused with 400 InvalidStorageClass and stores nothing, and every answer that
 * names a class says STANDARD. Before, {@code NOT_A_CLASS} was stored, HEAD said it and listings said STANDARD.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StorageClassIT extends AbstractS3IT {
    private String bucket;

    @BeforeAll
    void createStorageClassBucket() {
        bucket = createBucket("storage-class");
        s3.putObject(request -> request.bucket(bucket).key("source"), RequestBody.fromString("source"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"NOT_A_CLASS", "REDUCED_REDUNDANCY", "STANDARD_IA", "GLACIER", "DEEP_ARCHIVE", "standard"})
    void writesAskingForAnotherClassAreRefusedAndStoreNothing(String storageClass) {
        String key = "refused-" + storageClass;

        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key(key).storageClass(storageClass),
                RequestBody.fromString("x")), 400, "InvalidStorageClass");
        assertS3Error(() -> s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("source")
                .destinationBucket(bucket).destinationKey(key).storageClass(storageClass)), 400, "InvalidStorageClass");
        assertS3Error(() -> s3.createMultipartUpload(request -> request.bucket(bucket).key(key)
                .storageClass(storageClass)), 400, "InvalidStorageClass");

        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key)), 404);
        assertThat(s3.listMultipartUploads(request -> request.bucket(bucket).prefix(key)).uploads()).isEmpty();
    }

    @Test
    void theRefusalSaysWhichClassesHangarStores() {
        var error = assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("glacier")
                .storageClass(StorageClass.GLACIER), RequestBody.fromString("x")), 400, "InvalidStorageClass");

        assertThat(error.awsErrorDetails().errorMessage()).contains("STANDARD").contains("GLACIER");
    }

    /**
     * STANDARD, asked for or not, is what HEAD (which, as S3, sends no x-amz-storage-class for it), the
     * listings, ListObjectVersions, GetObjectAttributes and the multipart listings all say.
     */
    @Test
    void everyAnswerSaysStandard() {
        s3.putObject(request -> request.bucket(bucket).key("standard").storageClass(StorageClass.STANDARD),
                RequestBody.fromString("standard"));
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("source").destinationBucket(bucket)
                .destinationKey("copied").storageClass(StorageClass.STANDARD));
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key("upload")
                .storageClass(StorageClass.STANDARD)).uploadId();

        for (String key : new String[] {"standard", "copied"}) {
            HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key(key));
            assertThat(head.storageClass()).as("HEAD of %s", key).isNull();
            assertThat(head.sdkHttpResponse().firstMatchingHeader("x-amz-storage-class")).isEmpty();
            assertThat(s3.getObjectAttributes(request -> request.bucket(bucket).key(key)
                    .objectAttributes(ObjectAttributes.STORAGE_CLASS)).storageClass()).isEqualTo(StorageClass.STANDARD);
        }
        assertThat(s3.listObjectsV2(request -> request.bucket(bucket)).contents())
                .allSatisfy(object -> assertThat(object.storageClass()).isEqualTo(ObjectStorageClass.STANDARD));
        assertThat(s3.listObjects(request -> request.bucket(bucket)).contents())
                .allSatisfy(object -> assertThat(object.storageClass()).isEqualTo(ObjectStorageClass.STANDARD));
        assertThat(s3.listObjectVersions(request -> request.bucket(bucket)).versions())
                .allSatisfy(version -> assertThat(version.storageClass()).isEqualTo(ObjectVersionStorageClass.STANDARD));
        assertThat(s3.listMultipartUploads(request -> request.bucket(bucket)).uploads())
                .allSatisfy(upload -> assertThat(upload.storageClass()).isEqualTo(StorageClass.STANDARD));
        assertThat(s3.listParts(request -> request.bucket(bucket).key("upload").uploadId(uploadId)).storageClass())
                .isEqualTo(StorageClass.STANDARD);
        s3.abortMultipartUpload(request -> request.bucket(bucket).key("upload").uploadId(uploadId));
    }
}
