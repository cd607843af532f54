package dev.hangar.s3api.encryption;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Wrapping of one 256-bit key by another: AES-256-GCM with a random nonce, the purpose bound as associated data,
 * {@code base64(nonce ‖ ciphertext ‖ tag)}. A key wrapped for one purpose unwraps for no other.
 */
final class KeyWrap {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int NONCE = 12;

    private KeyWrap() {}

    static String wrap(SecretKeySpec wrapping, byte[] key, String purpose) {
        byte[] nonce = new byte[NONCE];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Ciphers.gcm();
            cipher.init(Cipher.ENCRYPT_MODE, wrapping, new GCMParameterSpec(128, nonce));
            cipher.updateAAD(purpose.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(key);
            byte[] out = Arrays.copyOf(nonce, NONCE + sealed.length);
            System.arraycopy(sealed, 0, out, NONCE, sealed.length);
            return Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM refused to wrap a key", e);
        }
    }

    /** @throws IllegalArgumentException when malformed, or not wrapped by that key for that purpose */
    static byte[] unwrap(SecretKeySpec wrapping, String wrapped, String purpose) {
        byte[] in;
        try {
            in = Base64.getDecoder().decode(wrapped);
        } catch (IllegalArgumentException malformed) {
            throw new IllegalArgumentException("a wrapped key that is not base64", malformed);
        }
        if (in.length != NONCE + 32 + 16) {
            throw new IllegalArgumentException("a wrapped key of " + in.length + " bytes");
        }
        try {
            Cipher cipher = Ciphers.gcm();
            cipher.init(Cipher.DECRYPT_MODE, wrapping, new GCMParameterSpec(128, in, 0, NONCE));
            cipher.updateAAD(purpose.getBytes(StandardCharsets.UTF_8));
            return cipher.doFinal(in, NONCE, in.length - NONCE);
        } catch (AEADBadTagException e) {
            throw new IllegalArgumentException("a wrapped key that this key did not wrap for " + purpose, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM refused to unwrap a key", e);
        }
    }
}
