package dev.hangar.cluster.rpc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret every node of a cluster shares, from which each RPC connection proves that both ends
 * belong to the cluster (see {@link Handshake}).
 *
 * <p>What is kept is not the operator's text but a key derived from it (HKDF's extract step: an
 * HMAC-SHA256 of the text under a fixed, Hangar-specific salt), so that the same text used for
 * something else never yields the same MAC key, and a text of any length becomes a 32-byte key.
 * {@link #toString} never shows either.
 */
public final class ClusterSecret {
    /** Shorter texts are refused: the secret is the only thing between the RPC port and the data. */
    public static final int MIN_LENGTH = 16;

    private static final String MAC = "HmacSHA256";
    private static final byte[] SALT = "hangar cluster secret v1".getBytes(StandardCharsets.US_ASCII);

    private final byte[] key;

    private ClusterSecret(byte[] key) {
        this.key = key;
    }

    /**
     * The secret {@code text}, at least {@link #MIN_LENGTH} characters once surrounding whitespace
     * is stripped.
     *
     * @throws IllegalArgumentException if it is too short (the message does not repeat it)
     */
    public static ClusterSecret of(String text) {
        String secret = text.strip();
        if (secret.length() < MIN_LENGTH) {
            throw new IllegalArgumentException("the cluster secret must be at least " + MIN_LENGTH
                    + " characters long (it has " + secret.length() + ")");
        }
        byte[] input = secret.getBytes(StandardCharsets.UTF_8);
        try {
            Mac extract = Mac.getInstance(MAC);
            extract.init(new SecretKeySpec(SALT, MAC));
            return new ClusterSecret(extract.doFinal(input));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has " + MAC, e);
        } finally {
            Arrays.fill(input, (byte) 0);
        }
    }

    /** The secret kept in {@code file} (UTF-8; a trailing newline is ignored). */
    public static ClusterSecret read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the cluster secret file " + file + ": " + e, e);
        }
        try {
            return of(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " in " + file, e);
        }
    }

    /**
     * A 32-byte key for another use of the secret (HKDF's expand step, one block: the HMAC of {@code purpose}
     * and a counter byte): distinct purposes give unrelated keys, and none of them is the handshake's.
     *
     * @param purpose what the key is for, e.g. {@code "hangar access key secrets v1"}
     */
    public byte[] deriveKey(String purpose) {
        Mac expand = mac();
        expand.update(purpose.getBytes(StandardCharsets.UTF_8));
        expand.update((byte) 1);
        return expand.doFinal();
    }

    /** A fresh HMAC-SHA256 keyed with this secret; not thread-safe, so one per use. */
    Mac mac() {
        try {
            Mac mac = Mac.getInstance(MAC);
            mac.init(new SecretKeySpec(key, MAC));
            return mac;
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("every JVM has " + MAC, e);
        }
    }

    @Override
    public String toString() {
        return "ClusterSecret[redacted]";
    }
}
