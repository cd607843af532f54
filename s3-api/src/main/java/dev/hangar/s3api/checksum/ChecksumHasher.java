package dev.hangar.s3api.checksum;

import java.util.Base64;

/**
 * Computes one checksum incrementally over a stream of bytes. Not thread-safe; one per stream.
 */
public interface ChecksumHasher {

    /** Feeds {@code length} bytes of {@code bytes} starting at {@code offset}. */
    void update(byte[] bytes, int offset, int length);

    /** The digest of everything fed so far, big-endian, as S3 encodes it; the hasher must not be used after. */
    byte[] digest();

    /** The base64 of {@link #digest()}: the form of the {@code x-amz-checksum-*} headers and trailers. */
    default String digestBase64() {
        return Base64.getEncoder().encodeToString(digest());
    }
}
