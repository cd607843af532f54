/**
 * The additional checksums S3 clients send with uploads ({@code x-amz-checksum-crc32}, {@code -crc32c},
 * {@code -crc64nvme}, {@code -sha1}, {@code -sha256}).
 *
 * <p>{@link dev.hangar.s3api.checksum.ChecksumAlgorithm} names an algorithm and makes an incremental
 * {@link dev.hangar.s3api.checksum.ChecksumHasher}; the value S3 exchanges is the base64 of the
 * big-endian digest bytes (4 bytes for the CRC32 family, 8 for CRC64/NVME, the full digest for SHA).
 * The CRC32 variants come from {@code java.util.zip}; CRC64/NVME is implemented here, slice-by-8, because
 * the JDK has none.
 */
@NullMarked
package dev.hangar.s3api.checksum;

import org.jspecify.annotations.NullMarked;
