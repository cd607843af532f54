package dev.hangar.s3api.encryption;

import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Objects;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Plaintext in, its {@link SealedFormat sealed} stream out, one segment at a time: at most one segment of
 * plaintext and one of ciphertext are held, whatever the object's size.
 */
public final class SealingStream extends SegmentBuffer {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final InputStream plain;
    private final ContentKey key;
    private final byte[] salt = new byte[SealedFormat.SALT];
    private final SecretKeySpec streamKey;
    private final Cipher cipher;
    private final byte[] input = new byte[SealedFormat.SEGMENT + 1];
    /** Plaintext read ahead of the current segment (to know whether that segment is the last): 0 or 1 byte. */
    private int carried;
    private long index;
    private boolean sealedLast;

    public SealingStream(InputStream plain, ContentKey key) {
        super(SealedFormat.SEALED_SEGMENT);
        this.plain = Objects.requireNonNull(plain);
        this.key = key;
        RANDOM.nextBytes(salt);
        this.streamKey = key.streamKey(salt);
        this.cipher = Ciphers.gcm();
        System.arraycopy(salt, 0, output, 0, salt.length);
        this.outputLength = salt.length;
    }

    /**
     * The entity tag of what this stream sealed, from the MD5 of its plaintext: see {@link ContentKey#etag}.
     */
    public byte[] etag(byte[] plaintextMd5) {
        return key.etag(salt, plaintextMd5);
    }

    /** Seals the next segment; false once the last has been read. */
    @Override
    boolean fill() throws IOException {
        if (sealedLast) {
            return false;
        }
        // Reads one byte past the segment: whether there is one tells whether this segment is the last.
        int filled = carried + plain.readNBytes(input, carried, SealedFormat.SEGMENT + 1 - carried);
        boolean last = filled <= SealedFormat.SEGMENT;
        int segment = Math.min(filled, SealedFormat.SEGMENT);
        try {
            cipher.init(Cipher.ENCRYPT_MODE, streamKey, new GCMParameterSpec(128, SealedFormat.nonce(index, last)));
            outputLength = cipher.doFinal(input, 0, segment, output, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM refused a segment", e);
        }
        outputPosition = 0;
        carried = last ? 0 : 1;
        if (!last) {
            input[0] = input[SealedFormat.SEGMENT];
        }
        index++;
        sealedLast = last;
        return true;
    }

    @Override
    public void close() throws IOException {
        plain.close();
    }
}
