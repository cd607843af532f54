package dev.hangar.metadata;

/**
 * What a non-root access key may do in one bucket. The store records it; the S3 layer enforces it.
 *
 * @param read list the bucket, read its objects
 * @param write put and delete its objects, run multipart uploads
 * @param owner change the bucket's configurations and ACLs, delete the bucket
 */
public record BucketPermission(boolean read, boolean write, boolean owner) {}
