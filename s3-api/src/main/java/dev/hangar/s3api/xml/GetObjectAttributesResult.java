package dev.hangar.s3api.xml;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What an object version has of the attributes GetObjectAttributes reports; the renderer writes
 * only those the request asked for, and of those only the ones the object has. Root {@code
 * GetObjectAttributesResponse}, rendered as {@code ETag}, {@code Checksum}, {@code ObjectParts},
 * {@code StorageClass}, {@code ObjectSize}: the order S3 answers in (recorded against S3 in 2026),
 * not the API reference's alphabetical one. Asking for an attribute the object lacks is no error:
 * a single-part object asked for {@code ObjectParts} answers an empty document.
 *
 * @param etag the ETag; S3 writes it here without its quotes, alone among its documents, so the
 *     renderer removes them if present
 * @param checksums the object's additional checksum, rendered inside {@code Checksum} with {@code
 *     ChecksumType}; {@link Checksums#none()} when it has none, and then no {@code Checksum} is written
 * @param checksumType {@code FULL_OBJECT} or {@code COMPOSITE}, or null
 * @param objectParts the parts of a multipart object, or null for an object uploaded in one piece
 * @param objectSize the size in bytes
 */
public record GetObjectAttributesResult(
        String etag,
        Checksums checksums,
        @Nullable String checksumType,
        @Nullable ObjectParts objectParts,
        String storageClass,
        long objectSize) {

    public GetObjectAttributesResult {
        Objects.requireNonNull(etag, "etag is required");
        Objects.requireNonNull(checksums, "checksums are required; use Checksums.none()");
        Objects.requireNonNull(storageClass, "storage class is required");
        if (objectSize < 0) {
            throw new IllegalArgumentException("object size must not be negative: " + objectSize);
        }
    }

    /**
     * {@code ObjectParts}: {@code PartsCount}, then, when S3 lists the parts, {@code
     * PartNumberMarker}, {@code NextPartNumberMarker}, {@code MaxParts}, {@code IsTruncated} and
     * every {@code Part}. The element for the total is {@code PartsCount} on the wire (the
     * service model's member is {@code TotalPartsCount}). S3 lists the parts only of an upload
     * made with a composite checksum; for others it answers the count alone.
     *
     * @param page the listed parts, or null to write the count alone
     */
    public record ObjectParts(int totalPartsCount, @Nullable Page page) {
        public ObjectParts {
            if (totalPartsCount < 0) {
                throw new IllegalArgumentException("parts count must not be negative: " + totalPartsCount);
            }
        }
    }

    /**
     * One page of parts.
     *
     * @param partNumberMarker the echoed part-number-marker, 0 when none was sent
     * @param nextPartNumberMarker the last part number of this page, which S3 sends even when the
     *     page is the last
     */
    public record Page(
            int partNumberMarker, int nextPartNumberMarker, int maxParts, boolean isTruncated, List<Part> parts) {

        public Page {
            if (maxParts < 0) {
                throw new IllegalArgumentException("max parts must not be negative: " + maxParts);
            }
            parts = List.copyOf(parts);
        }
    }

    /** One {@code Part}: {@code PartNumber}, {@code Size}, then its checksums. */
    public record Part(int partNumber, long size, Checksums checksums) {
        public Part {
            Objects.requireNonNull(checksums, "checksums are required; use Checksums.none()");
            if (size < 0) {
                throw new IllegalArgumentException("part size must not be negative: " + size);
            }
        }
    }
}
