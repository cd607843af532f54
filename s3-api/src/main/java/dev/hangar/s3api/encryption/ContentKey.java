package dev.hangar.s3api.encryption;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The 256-bit key an object's content is sealed with: a customer's key (SSE-C), or a data key the key service made
 * for the object. It never seals bytes itself: each stream (an object, a part) gets its own key from it and the
 * stream's random salt ({@link #streamKey}), and the key is checked against a stored {@link #check} without being
 * stored.
 */
public final class ContentKey {
    private static final byte[] STREAM = "hangar/sealed-stream/v1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CHECK = "hangar/key-check/v1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ETAG = "hangar/etag/v1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] WRAP = "hangar/wrap/v1".getBytes(StandardCharsets.US_ASCII);
    private static final int CHECK_SALT = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] material;

    /** @param material 32 bytes; copied */
    public ContentKey(byte[] material) {
        if (material.length != 32) {
            throw new IllegalArgumentException("a content key has 32 bytes, not " + material.length);
        }
        this.material = material.clone();
    }

    /** A fresh random key: the data key of an object the key service seals. */
    public static ContentKey random() {
        byte[] material = new byte[32];
        RANDOM.nextBytes(material);
        return new ContentKey(material);
    }

    /** The key's bytes, for {@link MasterKeys} to wrap; a copy. */
    byte[] material() {
        return material.clone();
    }

    /**
     * Wraps another key with this one (as a KMS key wraps an object's data key), for {@code purpose} only: with a
     * wrapping key derived from this one, so that this key's own uses and the wrapping never share a key.
     */
    public String wrap(ContentKey key, String purpose) {
        return KeyWrap.wrap(wrappingKey(), key.material, purpose);
    }

    /**
     * Unwraps a key {@link #wrap} made for {@code purpose}.
     *
     * @throws IllegalArgumentException when malformed, or not wrapped by this key for that purpose
     */
    public ContentKey unwrap(String wrapped, String purpose) {
        return new ContentKey(KeyWrap.unwrap(wrappingKey(), wrapped, purpose));
    }

    private SecretKeySpec wrappingKey() {
        return new SecretKeySpec(hmac(material, WRAP), "AES");
    }

    /** The AES key of the stream whose salt is {@code salt}. */
    SecretKeySpec streamKey(byte[] salt) {
        return new SecretKeySpec(hmac(material, STREAM, salt), "AES");
    }

    /**
     * A value to store beside content sealed with this key, that tells this key from another ({@link #matches})
     * and reveals nothing of it: a random salt and the HMAC of it under the key.
     */
    public String check() {
        byte[] salt = new byte[CHECK_SALT];
        RANDOM.nextBytes(salt);
        Base64.Encoder base64 = Base64.getEncoder();
        return base64.encodeToString(salt) + "." + base64.encodeToString(hmac(material, CHECK, salt));
    }

    /** Whether this is the key a {@link #check} was made with; false for a malformed check. */
    public boolean matches(String check) {
        int dot = check.indexOf('.');
        if (dot < 0) {
            return false;
        }
        try {
            byte[] salt = Base64.getDecoder().decode(check.substring(0, dot));
            byte[] expected = Base64.getDecoder().decode(check.substring(dot + 1));
            return MessageDigest.isEqual(expected, hmac(material, CHECK, salt));
        } catch (IllegalArgumentException malformed) {
            return false;
        }
    }

    /**
     * The entity tag of content sealed with this key whose plaintext has MD5 {@code md5}: 16 bytes that are not
     * the MD5 (which would let anyone who can list the bucket test a guess of the plaintext), as S3's tags of
     * SSE-C and SSE-KMS objects are not. {@code salt} makes it differ between two uploads of the same bytes.
     */
    byte[] etag(byte[] salt, byte[] md5) {
        return Arrays.copyOf(hmac(material, ETAG, salt, md5), 16);
    }

    private static byte[] hmac(byte[] key, byte[]... parts) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            for (byte[] part : parts) {
                mac.update(part);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has HmacSHA256", e);
        }
    }

    /** Never the key. */
    @Override
    public String toString() {
        return "ContentKey[redacted]";
    }
}
