package dev.hangar.s3api.encryption;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The key service's master keys: the current one wraps every new data key (SSE-S3), and earlier ones, kept after
 * a rotation, still unwrap the data keys they wrapped. A wrapped key names its master key by an id derived from it
 * (never the key), so a configuration needs no ids and a rotation needs no rewrite of what is stored: objects
 * sealed before it stay readable as long as their master key is configured among the previous ones.
 *
 * <p>Wrapping is {@link KeyWrap}'s, prefixed by the master key's id: {@code id:base64(nonce ‖ ciphertext ‖ tag)}.
 */
public final class MasterKeys {
    private static final byte[] ID = "hangar/master-key-id/v1".getBytes(StandardCharsets.US_ASCII);

    private final String currentId;
    private final Map<String, SecretKeySpec> keys;

    private MasterKeys(String currentId, Map<String, SecretKeySpec> keys) {
        this.currentId = currentId;
        this.keys = keys;
    }

    /**
     * @param current the master key new data keys are wrapped with: 32 bytes
     * @param previous master keys of earlier rotations, which only unwrap
     */
    public static MasterKeys of(byte[] current, List<byte[]> previous) {
        Map<String, SecretKeySpec> keys = new LinkedHashMap<>();
        String currentId = idOf(current);
        keys.put(currentId, spec(current));
        for (byte[] key : previous) {
            keys.putIfAbsent(idOf(key), spec(key));
        }
        return new MasterKeys(currentId, keys);
    }

    /** The id of the current master key: what a data key wrapped now names. */
    public String currentId() {
        return currentId;
    }

    /** The ids of every configured master key, the current one first. */
    public List<String> ids() {
        return new ArrayList<>(keys.keySet());
    }

    /** The id of the master key a wrapped data key names. */
    public static String idOfWrapped(String wrapped) {
        int colon = wrapped.indexOf(':');
        return colon < 0 ? "" : wrapped.substring(0, colon);
    }

    /** Wraps a data key with the current master key, for {@code purpose} only. */
    public String wrap(ContentKey dataKey, String purpose) {
        return currentId + ":" + KeyWrap.wrap(keys.get(currentId), dataKey.material(), purpose);
    }

    /**
     * Unwraps a data key {@link #wrap} made for {@code purpose}.
     *
     * @throws UnknownMasterKeyException when the master key it names is not configured
     * @throws IllegalArgumentException when it is malformed, or was not made by that master key for that purpose
     */
    public ContentKey unwrap(String wrapped, String purpose) {
        String id = idOfWrapped(wrapped);
        SecretKeySpec key = keys.get(id);
        if (key == null) {
            throw new UnknownMasterKeyException(id);
        }
        return new ContentKey(KeyWrap.unwrap(key, wrapped.substring(id.length() + 1), purpose));
    }

    /** A master key's id: the first 8 bytes of an HMAC under it, in hex; it reveals nothing of the key. */
    static String idOf(byte[] key) {
        if (key.length != 32) {
            throw new IllegalArgumentException("a master key has 32 bytes (256 bits), not " + key.length);
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return HexFormat.of().formatHex(Arrays.copyOf(mac.doFinal(ID), 8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has HmacSHA256", e);
        }
    }

    private static SecretKeySpec spec(byte[] key) {
        idOf(key); // checks the length
        return new SecretKeySpec(key.clone(), "AES");
    }

    /** Never the keys. */
    @Override
    public String toString() {
        return "MasterKeys[current=" + currentId + ", all=" + keys.keySet() + "]";
    }

    /** A wrapped data key names a master key that is not configured (retired too early, or another deployment's). */
    public static final class UnknownMasterKeyException extends RuntimeException {
        private final String id;

        UnknownMasterKeyException(String id) {
            super("the data key was wrapped with master key " + id + ", which is not configured");
            this.id = id;
        }

        public String id() {
            return id;
        }
    }
}
