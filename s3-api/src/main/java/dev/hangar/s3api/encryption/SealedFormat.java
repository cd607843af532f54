package dev.hangar.s3api.encryption;

/**
 * The layout of encrypted content ("sealed"): what an object, or each part of a multipart object, is stored as.
 *
 * <pre>
 *   salt (32 random bytes) | segment 0 | segment 1 | ... | segment n-1
 *   segment i = AES-256-GCM(streamKey, nonce(i, i == n-1), up to 64 KiB of plaintext) = ciphertext | 16-byte tag
 * </pre>
 *
 * <p>Every segment but the last holds exactly {@link #SEGMENT} bytes of plaintext; the last holds 1 to {@link
 * #SEGMENT} (0 for empty content, which still has its one authenticated segment, so that an empty object cannot be
 * told from a truncated one). Fixed-size segments make a plaintext offset a stored offset by arithmetic, so a ranged
 * read decrypts only the segments it touches. The nonce numbers the segment and marks the last one: a segment moved
 * to another place, or a stream cut after a segment that is not its last, fails authentication. The stream key is
 * derived from the object's key and the salt ({@link ContentKey#streamKey}), so no two streams share a key and a
 * counter nonce is never reused.
 */
public final class SealedFormat {
    /** Plaintext bytes per segment. */
    public static final int SEGMENT = 64 * 1024;
    /** GCM tag bytes per segment. */
    public static final int TAG = 16;
    /** Random salt bytes heading each stream. */
    public static final int SALT = 32;
    /** Stored bytes of a full segment. */
    public static final int SEALED_SEGMENT = SEGMENT + TAG;

    private SealedFormat() {}

    /** How many segments a stream of {@code plain} bytes has: at least one. */
    public static long segments(long plain) {
        requireNonNegative(plain);
        return plain == 0 ? 1 : (plain + SEGMENT - 1) / SEGMENT;
    }

    /** The stored length of {@code plain} bytes sealed. */
    public static long storedLength(long plain) {
        return SALT + plain + TAG * segments(plain);
    }

    /**
     * The plaintext length of a sealed stream of {@code stored} bytes: the inverse of {@link #storedLength}.
     *
     * @throws IllegalArgumentException if no plaintext length seals to that many bytes
     */
    public static long plainLength(long stored) {
        if (stored < SALT + TAG) {
            throw new IllegalArgumentException("a sealed stream has at least " + (SALT + TAG) + " bytes, not " + stored);
        }
        long body = stored - SALT;
        long segments = (body + SEALED_SEGMENT - 1) / SEALED_SEGMENT;
        long plain = body - TAG * segments;
        if (storedLength(plain) != stored) {
            throw new IllegalArgumentException("no plaintext seals to " + stored + " bytes");
        }
        return plain;
    }

    /** The offset, within a stream, of segment {@code index}. */
    public static long segmentOffset(long index) {
        return SALT + index * SEALED_SEGMENT;
    }

    /** The 96-bit GCM nonce of segment {@code index}: its number, and whether it is the stream's last. */
    static byte[] nonce(long index, boolean last) {
        byte[] nonce = new byte[12];
        for (int i = 0; i < 8; i++) {
            nonce[i] = (byte) (index >>> (56 - 8 * i));
        }
        nonce[11] = (byte) (last ? 1 : 0);
        return nonce;
    }

    private static void requireNonNegative(long plain) {
        if (plain < 0) {
            throw new IllegalArgumentException("negative length " + plain);
        }
    }
}
