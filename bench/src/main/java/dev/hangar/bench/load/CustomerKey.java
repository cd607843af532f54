package dev.hangar.bench.load;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * An SSE-C key as the headers carry it: the 256-bit key in Base64 and the Base64 MD5 of the key,
 * which the endpoint checks the key against.
 */
record CustomerKey(String base64, String md5) {

    static final String ALGORITHM = "AES256";

    /** A fresh random key: one per run, so no run reads another's objects. */
    static CustomerKey random(SecureRandom random) {
        byte[] key = new byte[32];
        random.nextBytes(key);
        return of(key);
    }

    static CustomerKey of(byte[] key) {
        try {
            byte[] digest = MessageDigest.getInstance("MD5").digest(key);
            return new CustomerKey(Base64.getEncoder().encodeToString(key), Base64.getEncoder().encodeToString(digest));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has MD5", e);
        }
    }

    @Override
    public String toString() {
        // A key never lands in a report or a log.
        return "CustomerKey[md5=" + md5 + "]";
    }
}
