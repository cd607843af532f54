package dev.hangar.s3api.xml;

import java.util.List;
import java.util.Objects;

/**
 * ListParts. Rendered as {@code Bucket}, {@code Key}, {@code UploadId}, {@code Initiator}, {@code
 * Owner}, {@code StorageClass}, {@code PartNumberMarker}, {@code NextPartNumberMarker}, {@code
 * MaxParts}, {@code IsTruncated}, then every {@code Part}: the order of the API reference's example
 * and of real S3. The reference's syntax block, which puts Initiator, Owner and StorageClass after
 * the parts, is the service model's member order.
 *
 * @param partNumberMarker the echoed part-number-marker, 0 when none was sent
 * @param nextPartNumberMarker the last part number of this page (S3 sends it on every page), 0 when
 *     the page is empty
 */
public record ListPartsResult(
        String bucket,
        String key,
        String uploadId,
        Owner initiator,
        Owner owner,
        String storageClass,
        int partNumberMarker,
        int nextPartNumberMarker,
        int maxParts,
        boolean isTruncated,
        List<PartEntry> parts) {

    public ListPartsResult {
        Objects.requireNonNull(bucket, "bucket is required");
        Objects.requireNonNull(key, "key is required");
        Objects.requireNonNull(uploadId, "upload id is required");
        Objects.requireNonNull(initiator, "initiator is required");
        Objects.requireNonNull(owner, "owner is required");
        Objects.requireNonNull(storageClass, "storage class is required");
        if (maxParts < 0) {
            throw new IllegalArgumentException("max parts must not be negative: " + maxParts);
        }
        parts = List.copyOf(parts);
    }
}
