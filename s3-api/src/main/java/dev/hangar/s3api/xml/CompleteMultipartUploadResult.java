package dev.hangar.s3api.xml;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * CompleteMultipartUpload's answer: {@code Location}, {@code Bucket}, {@code Key}, {@code ETag}, the
 * checksums that are present, then {@code ChecksumType} when present (AWS's documented order).
 *
 * @param location the object's URL
 * @param etag the multipart ETag with its quotes, such as {@code "\"<md5 of md5s>-3\""}
 * @param checksumType {@code COMPOSITE} or {@code FULL_OBJECT} when the upload had a checksum,
 *     otherwise null
 */
public record CompleteMultipartUploadResult(
        String location,
        String bucket,
        String key,
        String etag,
        Checksums checksums,
        @Nullable String checksumType) {

    public CompleteMultipartUploadResult {
        Objects.requireNonNull(location, "location is required");
        Objects.requireNonNull(bucket, "bucket is required");
        Objects.requireNonNull(key, "key is required");
        Objects.requireNonNull(etag, "etag is required");
        Objects.requireNonNull(checksums, "checksums are required; use Checksums.none()");
    }

    /** An upload without additional checksums. */
    public CompleteMultipartUploadResult(String location, String bucket, String key, String etag) {
        this(location, bucket, key, etag, Checksums.none(), null);
    }
}
