package dev.hangar.distribution;

import dev.hangar.metadata.command.AccessKeyChange;
import dev.hangar.metadata.state.CommandRefusedException;
import dev.hangar.cluster.rpc.ClusterSecret;
import dev.hangar.metadata.AccessKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Access key secrets as they are stored and replicated: sealed with AES-256-GCM, never in plain text.
 *
 * <p>The sealing key is derived from the cluster secret on a cluster node, so that every node opens what any
 * node sealed, or from the node's master key on a single node: {@code <data-dir>/master.key}, 32 random bytes
 * made on the first start, readable by its owner only. A copy of the metadata (a backup, a replica's disk, a
 * RocksDB file sent for a bug report) then holds no usable secret without that key.
 *
 * <p>A sealed secret is {@code sealed:v1:} and the base64 of a fresh 12-byte nonce and the ciphertext with its
 * tag; the key id is the additional data, so a sealed secret moved to another key does not open. Secrets
 * stored before sealing existed have no prefix: they are opened as they are, and {@link #sealStored} seals
 * them in place.
 */
final class SecretSeal {
    static final String PREFIX = "sealed:v1:";
    static final String MASTER_KEY_FILE = "master.key";

    private static final Logger LOG = LoggerFactory.getLogger(SecretSeal.class);
    private static final String PURPOSE = "hangar access key secrets v1";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    private SecretSeal(byte[] key) {
        this.key = new SecretKeySpec(key, "AES");
        Arrays.fill(key, (byte) 0);
    }

    /** A seal keyed from the cluster secret: the same on every node of the cluster. */
    static SecretSeal fromClusterSecret(ClusterSecret secret) {
        return new SecretSeal(secret.deriveKey(PURPOSE));
    }

    /** A seal keyed from the node's master key file in {@code dataDir}, made on the first call. */
    static SecretSeal fromMasterKey(Path dataDir) {
        byte[] master = readOrCreateMasterKey(dataDir.resolve(MASTER_KEY_FILE));
        try {
            Mac expand = Mac.getInstance("HmacSHA256");
            expand.init(new SecretKeySpec(master, "HmacSHA256"));
            expand.update(PURPOSE.getBytes(StandardCharsets.UTF_8));
            expand.update((byte) 1);
            return new SecretSeal(expand.doFinal());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has HmacSHA256", e);
        } finally {
            Arrays.fill(master, (byte) 0);
        }
    }

    /** The key with its secret sealed, unless it already is. */
    AccessKey sealed(AccessKey accessKey) {
        return isSealed(accessKey.secretKey()) ? accessKey
                : accessKey.withSecretKey(seal(accessKey.accessKeyId(), accessKey.secretKey()));
    }

    /** The key with its secret in plain text, as signature checks need it. */
    AccessKey opened(AccessKey accessKey) {
        return isSealed(accessKey.secretKey())
                ? accessKey.withSecretKey(open(accessKey.accessKeyId(), accessKey.secretKey()))
                : accessKey;
    }

    static boolean isSealed(String stored) {
        return stored.startsWith(PREFIX);
    }

    /**
     * Seals every stored secret that is still in plain text (stored before sealing existed).
     *
     * @return how many were sealed
     */
    int sealStored(dev.hangar.metadata.MetadataStore metadata) {
        int sealed = 0;
        for (AccessKey stored : metadata.listAccessKeys()) {
            if (!isSealed(stored.secretKey())) {
                // Only if the secret is still the plain one read: a key rotated meanwhile keeps its new secret.
                try {
                    metadata.changeAccessKey(stored.accessKeyId(), new AccessKeyChange.ReplaceSecret(
                            stored.secretKey(), sealed(stored).secretKey()));
                    sealed++;
                } catch (CommandRefusedException replacedMeanwhile) {
                    LOG.debug("access key {} changed while being sealed", stored.accessKeyId());
                }
            }
        }
        if (sealed > 0) {
            LOG.info("sealed the secrets of {} access keys stored in plain text", sealed);
        }
        return sealed;
    }

    private String seal(String accessKeyId, String secret) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(accessKeyId.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            byte[] stored = new byte[nonce.length + sealed.length];
            System.arraycopy(nonce, 0, stored, 0, nonce.length);
            System.arraycopy(sealed, 0, stored, nonce.length, sealed.length);
            return PREFIX + Base64.getEncoder().encodeToString(stored);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has AES/GCM", e);
        }
    }

    private String open(String accessKeyId, String stored) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(stored.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("the stored secret of access key " + accessKeyId + " is damaged", e);
        }
        if (bytes.length <= NONCE_BYTES) {
            throw new IllegalStateException("the stored secret of access key " + accessKeyId + " is damaged");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, bytes, 0, NONCE_BYTES));
            cipher.updateAAD(accessKeyId.getBytes(StandardCharsets.UTF_8));
            return new String(cipher.doFinal(bytes, NONCE_BYTES, bytes.length - NONCE_BYTES), StandardCharsets.UTF_8);
        } catch (javax.crypto.AEADBadTagException e) {
            throw new IllegalStateException("the secret of access key " + accessKeyId + " was sealed with another key"
                    + " (another cluster secret, or another node's master.key) or is damaged", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has AES/GCM", e);
        }
    }

    private static byte[] readOrCreateMasterKey(Path file) {
        try {
            if (Files.exists(file)) {
                byte[] key = Files.readAllBytes(file);
                if (key.length != 32) {
                    throw new IllegalStateException(file + " must hold 32 bytes, the key that seals access key "
                            + "secrets; it holds " + key.length);
                }
                return key;
            }
            byte[] key = new byte[32];
            RANDOM.nextBytes(key);
            Files.createDirectories(file.getParent());
            Path temporary = file.resolveSibling(MASTER_KEY_FILE + ".tmp");
            Files.deleteIfExists(temporary);
            Files.createFile(temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.write(temporary, key, StandardOpenOption.WRITE, StandardOpenOption.SYNC);
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException raced) {
                Files.deleteIfExists(temporary);
                return readOrCreateMasterKey(file);
            }
            LOG.info("made the master key that seals access key secrets: {} (back it up with the data)", file);
            return key;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or make the master key " + file, e);
        }
    }

    @Override
    public String toString() {
        return "SecretSeal[AES-256-GCM]";
    }
}
