package dev.hangar.s3api.xml;

import java.time.Instant;
import java.util.Objects;

/**
 * CopyObject's {@code CopyObjectResult} and UploadPartCopy's {@code CopyPartResult}, which have
 * the same shape: {@code LastModified}, {@code ETag}, then the checksums that are present.
 * LastModified comes first on the wire (the 2006 schema's sequence, the API reference's examples
 * and what S3 sends), although the reference's syntax block lists ETag first.
 *
 * @param etag the new object's or part's ETag with its quotes
 */
public record CopyResult(String etag, Instant lastModified, Checksums checksums) {
    public CopyResult {
        Objects.requireNonNull(etag, "etag is required");
        Objects.requireNonNull(lastModified, "last modified is required");
        Objects.requireNonNull(checksums, "checksums are required; use Checksums.none()");
    }

    /** A copy without additional checksums. */
    public CopyResult(String etag, Instant lastModified) {
        this(etag, lastModified, Checksums.none());
    }
}
