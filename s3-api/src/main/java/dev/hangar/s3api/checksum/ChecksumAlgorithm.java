package dev.hangar.s3api.checksum;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/** The additional checksum algorithms of S3, named as S3 names them in headers and responses. */
public enum ChecksumAlgorithm {
    CRC32(4),
    CRC32C(4),
    CRC64NVME(8),
    SHA1(20),
    SHA256(32);

    private static final String HEADER_PREFIX = "x-amz-checksum-";

    private final int digestLength;

    ChecksumAlgorithm(int digestLength) {
        this.digestLength = digestLength;
    }

    /** How many bytes the digest has, which is also how many the base64 value must decode to. */
    public int digestLength() {
        return digestLength;
    }

    /** The request header and trailer that carries this checksum, for example {@code x-amz-checksum-crc32}. */
    public String headerName() {
        return HEADER_PREFIX + name().toLowerCase(Locale.ROOT);
    }

    /** A fresh hasher for one stream. */
    public ChecksumHasher newHasher() {
        return switch (this) {
            case CRC32 -> new ZipChecksumHasher(new CRC32(), digestLength);
            case CRC32C -> new ZipChecksumHasher(new CRC32C(), digestLength);
            case CRC64NVME -> new ZipChecksumHasher(new Crc64Nvme(), digestLength);
            case SHA1 -> new MessageDigestHasher(messageDigest("SHA-1"));
            case SHA256 -> new MessageDigestHasher(messageDigest("SHA-256"));
        };
    }

    /**
     * The algorithm of a name as clients send it in {@code x-amz-sdk-checksum-algorithm} or
     * {@code x-amz-checksum-algorithm}; S3 accepts any letter case there.
     */
    public static Optional<ChecksumAlgorithm> fromName(String name) {
        for (ChecksumAlgorithm algorithm : values()) {
            if (algorithm.name().equalsIgnoreCase(name.trim())) {
                return Optional.of(algorithm);
            }
        }
        return Optional.empty();
    }

    /**
     * The algorithm whose header (or trailer) this is, for example {@code x-amz-checksum-crc32c}. Other
     * {@code x-amz-checksum-} headers such as {@code -type}, {@code -mode} and {@code -algorithm} are not
     * checksums and give empty.
     */
    public static Optional<ChecksumAlgorithm> fromHeaderName(String headerName) {
        for (ChecksumAlgorithm algorithm : values()) {
            if (algorithm.headerName().equalsIgnoreCase(headerName.trim())) {
                return Optional.of(algorithm);
            }
        }
        return Optional.empty();
    }

    private static MessageDigest messageDigest(String name) {
        try {
            return MessageDigest.getInstance(name);
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform is required to provide SHA-1 and SHA-256.
            throw new IllegalStateException(name + " is not available", e);
        }
    }
}
