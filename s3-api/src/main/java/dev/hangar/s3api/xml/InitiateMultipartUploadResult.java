package dev.hangar.s3api.xml;

import java.util.Objects;

/** CreateMultipartUpload: {@code Bucket}, {@code Key}, {@code UploadId}. */
public record InitiateMultipartUploadResult(String bucket, String key, String uploadId) {
    public InitiateMultipartUploadResult {
        Objects.requireNonNull(bucket, "bucket is required");
        Objects.requireNonNull(key, "key is required");
        Objects.requireNonNull(uploadId, "upload id is required");
    }
}
