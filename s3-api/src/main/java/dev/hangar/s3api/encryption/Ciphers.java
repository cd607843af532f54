package dev.hangar.s3api.encryption;

import java.security.GeneralSecurityException;
import javax.crypto.Cipher;

/** The JDK's AES-GCM, which every JDK has. */
final class Ciphers {
    private Ciphers() {}

    static Cipher gcm() {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has AES/GCM/NoPadding", e);
        }
    }
}
