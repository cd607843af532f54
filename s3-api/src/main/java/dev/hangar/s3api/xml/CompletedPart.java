package dev.hangar.s3api.xml;

import java.util.Objects;

/**
 * One {@code Part} of a CompleteMultipartUpload request, as the client sent it. The part number is
 * only known to be an integer: its range, the order of parts and whether the ETag matches are the
 * caller's to judge (InvalidPart, InvalidPartOrder).
 *
 * @param etag the ETag as sent, surrounding white space removed; clients send it with or without
 *     its quotes
 * @param checksums the checksums the client sent for this part, blank ones read as absent
 */
public record CompletedPart(int partNumber, String etag, Checksums checksums) {
    public CompletedPart {
        Objects.requireNonNull(etag, "etag is required");
        Objects.requireNonNull(checksums, "checksums are required; use Checksums.none()");
    }
}
