package dev.hangar.s3api.xml;

import java.time.Instant;
import java.util.Objects;

/**
 * One {@code Part} of ListParts: {@code PartNumber}, {@code LastModified}, {@code ETag}, {@code
 * Size}, then the checksums that are present.
 *
 * @param etag the part's ETag with its quotes
 */
public record PartEntry(int partNumber, Instant lastModified, String etag, long size, Checksums checksums) {
    public PartEntry {
        Objects.requireNonNull(lastModified, "last modified is required");
        Objects.requireNonNull(etag, "etag is required");
        Objects.requireNonNull(checksums, "checksums are required; use Checksums.none()");
        if (size < 0) {
            throw new IllegalArgumentException("part size must not be negative: " + size);
        }
    }

    /** A part without additional checksums. */
    public PartEntry(int partNumber, Instant lastModified, String etag, long size) {
        this(partNumber, lastModified, etag, size, Checksums.none());
    }
}
