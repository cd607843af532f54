package dev.hangar.metadata;

/**
 * An S3 additional checksum as the client sent it: algorithm name ({@code CRC32}, {@code CRC32C},
 * {@code CRC64NVME}, {@code SHA1}, {@code SHA256}) and the base64 value; multipart objects carry a
 * composite value ending in {@code -N}.
 */
public record Checksum(String algorithm, String value) {
    public Checksum {
        if (algorithm == null || value == null) {
            throw new IllegalArgumentException("checksum algorithm and value are required");
        }
    }
}
