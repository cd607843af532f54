package dev.hangar.s3api.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The Signature Version 2 arithmetic: {@code base64(HMAC-SHA1(secret, UTF-8(string to sign)))}, and its
 * comparison in constant time. The string to sign is a request's ({@link SigV2Verifier}) or a POST form's
 * policy, as received.
 */
public final class SignatureV2 {
    private static final String HMAC_SHA1 = "HmacSHA1";

    private SignatureV2() {
    }

    /** The base64 signature of a string under a secret key. */
    public static String sign(String secretKey, String stringToSign) {
        try {
            Mac mac = Mac.getInstance(HMAC_SHA1);
            mac.init(new SecretKeySpec(secretKey.getBytes(StandardCharsets.UTF_8), HMAC_SHA1));
            return Base64.getEncoder().encodeToString(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            // HmacSHA1 is required of every Java platform and any key length is valid for it.
            throw new IllegalStateException("HmacSHA1 is not available", e);
        }
    }

    /**
     * Whether a sent signature is the computed one, in time independent of where they differ. A {@code +} of
     * the base64 alphabet that a client left unencoded in a URL arrives decoded as a space; base64 has no
     * spaces, so they are read back as {@code +}.
     */
    public static boolean matches(String computed, String sent) {
        return MessageDigest.isEqual(computed.getBytes(StandardCharsets.US_ASCII),
                sent.replace(' ', '+').getBytes(StandardCharsets.US_ASCII));
    }
}
