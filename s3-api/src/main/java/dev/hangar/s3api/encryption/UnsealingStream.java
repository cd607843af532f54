package dev.hangar.s3api.encryption;

import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.util.Objects;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A run of a sealed stream's segments in, their plaintext out, each segment authenticated before any of its bytes
 * leave: damaged or reordered data, data sealed with another key, or a stream cut short fails the read with an
 * {@link IOException} instead of yielding wrong bytes.
 */
public final class UnsealingStream extends SegmentBuffer {
    private final InputStream sealed;
    private final SecretKeySpec streamKey;
    private final Cipher cipher;
    private final long lastIndex;
    private final long endIndex;
    private final byte[] input = new byte[SealedFormat.SEALED_SEGMENT];
    private long index;

    /**
     * @param sealed the stored bytes from the start of segment {@code firstIndex} on
     * @param salt the stream's salt (its first {@link SealedFormat#SALT} bytes)
     * @param run the segments {@code sealed} holds, of a stream of which plaintext length
     */
    public UnsealingStream(InputStream sealed, ContentKey key, byte[] salt, SegmentRun run) {
        super(SealedFormat.SEGMENT);
        this.sealed = Objects.requireNonNull(sealed);
        this.streamKey = key.streamKey(salt);
        this.cipher = Ciphers.gcm();
        this.lastIndex = SealedFormat.segments(run.plainLength()) - 1;
        this.endIndex = run.endIndex();
        this.index = run.firstIndex();
    }

    /** Opens the next segment; false at the end of the run. */
    @Override
    boolean fill() throws IOException {
        int filled = sealed.readNBytes(input, 0, input.length);
        if (filled == 0) {
            if (index < endIndex) {
                throw new IOException("sealed stream cut short before segment " + index);
            }
            return false;
        }
        if (index >= endIndex) {
            throw new IOException("sealed stream has data after segment " + (endIndex - 1));
        }
        boolean last = index == lastIndex;
        if (filled < SealedFormat.TAG || (!last && filled < input.length)) {
            throw new IOException("sealed stream cut short in segment " + index);
        }
        try {
            cipher.init(Cipher.DECRYPT_MODE, streamKey, new GCMParameterSpec(128, SealedFormat.nonce(index, last)));
            outputLength = cipher.doFinal(input, 0, filled, output, 0);
        } catch (AEADBadTagException e) {
            throw new IOException("segment " + index + " of sealed content failed authentication: the stored data is "
                    + "damaged, or was sealed with another key", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM refused a segment", e);
        }
        outputPosition = 0;
        index++;
        return true;
    }

    @Override
    public void close() throws IOException {
        sealed.close();
    }
}
