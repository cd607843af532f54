package dev.hangar.s3api.checksum;

import java.util.List;

/**
 * Combines the CRCs of consecutive pieces into the CRC of their concatenation without reading the
 * bytes again, as zlib's {@code crc32_combine} does: the CRC of A·B is the CRC of A shifted by |B|
 * bytes (multiplication by x^(8|B|) modulo the polynomial) xor the CRC of B. S3's FULL_OBJECT
 * checksums of multipart uploads are CRCs of the whole object, built this way from the parts'.
 */
public final class CrcCombination {
    /** How many bits of length the x^(2^k) table covers: lengths up to 2^63 bytes. */
    private static final int POWERS = 67;

    private final int width;
    private final long polynomial;
    private final long[] powers = new long[POWERS];

    private CrcCombination(int width, long reflectedPolynomial) {
        this.width = width;
        this.polynomial = reflectedPolynomial;
        powers[0] = 1L << (width - 2);
        for (int k = 1; k < POWERS; k++) {
            powers[k] = multiply(powers[k - 1], powers[k - 1]);
        }
    }

    private static final CrcCombination CRC32 = new CrcCombination(32, 0xEDB88320L);
    private static final CrcCombination CRC32C = new CrcCombination(32, 0x82F63B78L);
    private static final CrcCombination CRC64NVME = new CrcCombination(64, 0x9A6C9329AC4BC9B5L);

    /** The combiner of a CRC algorithm; SHA algorithms cannot be combined. */
    public static CrcCombination of(ChecksumAlgorithm algorithm) {
        return switch (algorithm) {
            case CRC32 -> CRC32;
            case CRC32C -> CRC32C;
            case CRC64NVME -> CRC64NVME;
            case SHA1, SHA256 -> throw new IllegalArgumentException(algorithm + " is not a CRC");
        };
    }

    /** A CRC value and the length of the bytes it covers. */
    public record Piece(long crc, long length) {}

    /** The CRC of the concatenation of the pieces, in order. */
    public long combine(List<Piece> pieces) {
        long crc = 0;
        boolean first = true;
        for (Piece piece : pieces) {
            crc = first ? piece.crc() : combine(crc, piece.crc(), piece.length());
            first = false;
        }
        return crc;
    }

    /** The CRC of A·B from the CRC of A, the CRC of B and the length of B. */
    public long combine(long crcOfFirst, long crcOfSecond, long lengthOfSecond) {
        return multiply(shiftPower(lengthOfSecond), crcOfFirst) ^ crcOfSecond;
    }

    /** x^(8·length) modulo the polynomial. */
    private long shiftPower(long length) {
        long product = 1L << (width - 1);
        int k = 3;
        for (long n = length; n != 0; n >>>= 1, k++) {
            if ((n & 1) != 0) {
                product = multiply(powers[k], product);
            }
        }
        return product;
    }

    /** a·b modulo the polynomial, in the reflected bit order CRCs use. */
    private long multiply(long a, long b) {
        long top = 1L << (width - 1);
        long mask = width == 64 ? -1L : (1L << width) - 1;
        long product = 0;
        for (long bit = top; bit != 0; bit >>>= 1) {
            if ((a & bit) != 0) {
                product ^= b;
            }
            b = (b & 1) != 0 ? (b >>> 1) ^ polynomial : b >>> 1;
            b &= mask;
        }
        return product & mask;
    }
}
