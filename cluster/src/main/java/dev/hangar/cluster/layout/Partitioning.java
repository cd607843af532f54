package dev.hangar.cluster.layout;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Maps keys and block ids to partitions.
 *
 * <p>SHA-256 rather than a faster non-cryptographic hash: clients choose object keys, and a hash they
 * cannot steer keeps a hostile or unlucky naming scheme from piling every key on one partition. The
 * cost (well under a microsecond for a short key) is noise next to a network round trip. The mapping
 * is part of the on-disk and on-wire contract: changing it moves every object.
 */
public final class Partitioning {
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    });

    private final int partitions;

    /** Partitioning of the key space into {@code partitions} parts. */
    public Partitioning(int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be positive: " + partitions);
        }
        this.partitions = partitions;
    }

    /** Partitioning for the partition count of {@code layout}. */
    public static Partitioning of(ClusterLayout layout) {
        return new Partitioning(layout.partitions());
    }

    public int partitions() {
        return partitions;
    }

    /**
     * The partition of an object key. The bucket takes part so that one bucket's keys spread over all
     * partitions; a zero byte, which no bucket name contains, separates the two so that ("ab", "c")
     * and ("a", "bc") differ.
     */
    public int partitionOfKey(String bucket, String key) {
        MessageDigest digest = SHA256.get();
        digest.reset();
        digest.update(bucket.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
        digest.update(key.getBytes(StandardCharsets.UTF_8));
        return reduce(digest.digest());
    }

    /**
     * The partition of a block, from its id's text. Hashed although block ids are already random, so
     * that ids from any source spread evenly and a block never shares its placement with the object
     * whose key happens to hash alike.
     */
    public int partitionOfBlock(String blockId) {
        MessageDigest digest = SHA256.get();
        digest.reset();
        digest.update((byte) 1);
        digest.update(blockId.getBytes(StandardCharsets.US_ASCII));
        return reduce(digest.digest());
    }

    /** The partition of an arbitrary byte key (e.g. a bucket's own record). */
    public int partitionOfBytes(byte[] key) {
        MessageDigest digest = SHA256.get();
        digest.reset();
        digest.update((byte) 2);
        digest.update(key);
        return reduce(digest.digest());
    }

    // The first 8 bytes as an unsigned number modulo the count: the bias of a 64-bit modulo is far
    // below anything measurable for counts up to 65536.
    private int reduce(byte[] hash) {
        long high = 0;
        for (int i = 0; i < 8; i++) {
            high = (high << 8) | (hash[i] & 0xff);
        }
        return (int) Long.remainderUnsigned(high, partitions);
    }
}
