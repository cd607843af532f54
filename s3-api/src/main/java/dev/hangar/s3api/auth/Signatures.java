package dev.hangar.s3api.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The SigV4 arithmetic: SHA-256, HMAC-SHA256, key derivation, and comparison in constant time. */
final class Signatures {
    static final String ALGORITHM = "AWS4-HMAC-SHA256";
    static final String TERMINATOR = "aws4_request";
    /** The hex SHA-256 of no bytes: the "header hash" of every aws-chunked chunk string to sign. */
    static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    private static final HexFormat HEX = HexFormat.of();
    /**
     * Derived signing keys by secret, date, region and service: every request of a day signed with
     * one key derives the same one, and four HMACs per request are a visible share of a small PUT.
     * Cleared whenever it grows past a bound, so old dates and revoked secrets do not pile up.
     */
    private static final ConcurrentHashMap<String, byte[]> SIGNING_KEYS = new ConcurrentHashMap<>();
    private static final int SIGNING_KEY_CACHE_BOUND = 1024;
    /** Cloned rather than looked up: {@code Mac.getInstance} walks the security providers each time. */
    private static final Mac PROTOTYPE = lookUpMac();
    /** The same for the digests every request computes (the payload's SHA-256, the body's MD5). */
    private static final MessageDigest SHA256_PROTOTYPE = messageDigest("SHA-256");
    private static final MessageDigest MD5_PROTOTYPE = messageDigest("MD5");

    private Signatures() {
    }

    /** {@code kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, date), region), service), "aws4_request")}. */
    static byte[] signingKey(String secretKey, String date, String region, String service) {
        String cacheKey = secretKey + '\n' + date + '\n' + region + '\n' + service;
        byte[] cached = SIGNING_KEYS.get(cacheKey);
        if (cached != null) {
            return cached.clone();
        }
        byte[] derived = deriveSigningKey(secretKey, date, region, service);
        if (SIGNING_KEYS.size() >= SIGNING_KEY_CACHE_BOUND) {
            SIGNING_KEYS.clear();
        }
        SIGNING_KEYS.put(cacheKey, derived.clone());
        return derived;
    }

    private static byte[] deriveSigningKey(String secretKey, String date, String region, String service) {
        byte[] dateKey = hmac(("AWS4" + secretKey).getBytes(StandardCharsets.UTF_8), date);
        byte[] regionKey = hmac(dateKey, region);
        byte[] serviceKey = hmac(regionKey, service);
        return hmac(serviceKey, TERMINATOR);
    }

    /** The lower-case hex HMAC-SHA256 of a string to sign. */
    static String sign(byte[] signingKey, String stringToSign) {
        return HEX.formatHex(hmac(signingKey, stringToSign));
    }

    /** The lower-case hex HMAC-SHA256 of a string to sign, with a MAC already keyed by {@link #newMac}. */
    static String sign(Mac keyedMac, String stringToSign) {
        return HEX.formatHex(keyedMac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
    }

    static byte[] hmac(byte[] key, String data) {
        return newMac(key).doFinal(data.getBytes(StandardCharsets.UTF_8));
    }

    /** An HMAC-SHA256 keyed once, for the many chunk signatures of one body. */
    static Mac newMac(byte[] key) {
        try {
            Mac mac;
            try {
                mac = (Mac) PROTOTYPE.clone();
            } catch (CloneNotSupportedException notByThisProvider) {
                mac = Mac.getInstance("HmacSHA256");
            }
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            // HmacSHA256 is required of every Java platform and any key length is valid for it.
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    private static Mac lookUpMac() {
        try {
            return Mac.getInstance("HmacSHA256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    static String sha256Hex(String data) {
        return sha256Hex(data.getBytes(StandardCharsets.UTF_8));
    }

    static String sha256Hex(byte[] data) {
        return HEX.formatHex(newSha256().digest(data));
    }

    static String hex(byte[] bytes) {
        return HEX.formatHex(bytes);
    }

    static MessageDigest newSha256() {
        return copyOf(SHA256_PROTOTYPE);
    }

    static MessageDigest newMd5() {
        return copyOf(MD5_PROTOTYPE);
    }

    // A prototype is never updated, so each copy starts empty.
    private static MessageDigest copyOf(MessageDigest prototype) {
        try {
            return (MessageDigest) prototype.clone();
        } catch (CloneNotSupportedException notByThisProvider) {
            return messageDigest(prototype.getAlgorithm());
        }
    }

    /**
     * Compares a computed signature with the one the client sent without leaking, through timing, how many
     * leading characters matched. Hex letter case is the client's choice, so the sent one is lower-cased
     * first (that depends on the client's input only).
     */
    static boolean matches(String computedHex, String sentHex) {
        return MessageDigest.isEqual(
                computedHex.getBytes(StandardCharsets.US_ASCII),
                sentHex.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
    }

    private static MessageDigest messageDigest(String name) {
        try {
            return MessageDigest.getInstance(name);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(name + " is not available", e);
        }
    }
}
