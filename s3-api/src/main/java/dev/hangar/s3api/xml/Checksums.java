package dev.hangar.s3api.xml;

import org.jspecify.annotations.Nullable;

/**
 * The additional checksums S3 carries beside an ETag, each base64 as in the {@code
 * x-amz-checksum-*} headers, each absent unless the object or part has it. Rendered in the order
 * AWS documents: CRC32, CRC32C, CRC64NVME, SHA1, SHA256.
 */
public record Checksums(
        @Nullable String crc32,
        @Nullable String crc32c,
        @Nullable String crc64nvme,
        @Nullable String sha1,
        @Nullable String sha256) {

    private static final Checksums NONE = new Checksums(null, null, null, null, null);

    /** No checksum at all, the common case. */
    public static Checksums none() {
        return NONE;
    }
}
