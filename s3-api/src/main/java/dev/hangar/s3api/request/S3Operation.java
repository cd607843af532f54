package dev.hangar.s3api.request;

/**
 * Every S3 operation Hangar routes, named as in the S3 API reference. Operations Hangar does not
 * implement yet are {@link Unsupported}, which still carries the operation's name for the error.
 */
public sealed interface S3Operation {

    /** The S3 API name, e.g. {@code PutObject}; also the {@code operation} tag of metrics. */
    default String name() {
        return getClass().getSimpleName();
    }

    record ListBuckets() implements S3Operation {}

    record CreateBucket() implements S3Operation {}

    record HeadBucket() implements S3Operation {}

    record DeleteBucket() implements S3Operation {}

    record GetBucketLocation() implements S3Operation {}

    record ListObjects() implements S3Operation {}

    record ListObjectsV2() implements S3Operation {}

    record ListMultipartUploads() implements S3Operation {}

    record DeleteObjects() implements S3Operation {}

    record PutObject() implements S3Operation {}

    record CopyObject() implements S3Operation {}

    record GetObject() implements S3Operation {}

    record HeadObject() implements S3Operation {}

    record DeleteObject() implements S3Operation {}

    record CreateMultipartUpload() implements S3Operation {}

    record UploadPart(String uploadId, int partNumber) implements S3Operation {}

    record UploadPartCopy(String uploadId, int partNumber) implements S3Operation {}

    record CompleteMultipartUpload(String uploadId) implements S3Operation {}

    record AbortMultipartUpload(String uploadId) implements S3Operation {}

    record ListParts(String uploadId) implements S3Operation {}

    /** An operation S3 has and Hangar does not implement yet. */
    record Unsupported(String operation) implements S3Operation {
        @Override
        public String name() {
            return operation;
        }
    }
}
