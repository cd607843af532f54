package dev.hangar.cluster.table;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A two-level Merkle summary of one partition of a replica: 256 leaves, each the hash of the
 * entries whose SHA-256(partition key, sort key) starts with the leaf's number, and a root over the
 * leaves.
 *
 * <p>Two levels because that is all a partition needs: comparing roots settles the common case
 * (replicas in sync) in one 32-byte comparison, and a differing leaf narrows the exchange to about
 * 1/256 of the partition. Leaves by key hash rather than by key range so that one bucket's entries,
 * which share a partition key and crowd one end of the key range, still spread over all leaves.
 *
 * <p>Computed by scanning the partition; a persistent tree updated on every write (Garage's) would
 * save the scan and is the next step if partitions grow large.
 */
record PartitionSummary(byte[] root, byte[] leaves) {
    static final int LEAVES = 256;
    static final int HASH_BYTES = 32;

    /** The summary of {@code table}'s partition {@code partition}. */
    static PartitionSummary of(LocalTable table, int partition) {
        MessageDigest[] leafDigests = new MessageDigest[LEAVES];
        table.forEachInPartition(partition, entry -> {
            int leaf = leafOf(entry);
            if (leafDigests[leaf] == null) {
                leafDigests[leaf] = sha256();
            }
            // Entries arrive in key order, the same on every replica: equal contents, equal hashes.
            leafDigests[leaf].update(sha256().digest(EntryCodec.encode(entry)));
        });
        byte[] leaves = new byte[LEAVES * HASH_BYTES];
        MessageDigest root = sha256();
        for (int i = 0; i < LEAVES; i++) {
            // An empty leaf stays all zeros: cheap to make, and the same everywhere.
            if (leafDigests[i] != null) {
                System.arraycopy(leafDigests[i].digest(), 0, leaves, i * HASH_BYTES, HASH_BYTES);
            }
            root.update(leaves, i * HASH_BYTES, HASH_BYTES);
        }
        return new PartitionSummary(root.digest(), leaves);
    }

    /** The leaf an entry belongs to. */
    static int leafOf(Entry entry) {
        MessageDigest digest = sha256();
        digest.update(java.nio.ByteBuffer.allocate(4).putInt(entry.partitionKey().length).array());
        digest.update(entry.partitionKey());
        digest.update(entry.sortKey());
        return digest.digest()[0] & 0xff;
    }

    byte[] leaf(int i) {
        return Arrays.copyOfRange(leaves, i * HASH_BYTES, (i + 1) * HASH_BYTES);
    }

    /** The numbers of the leaves that differ from {@code other}'s, as unsigned bytes. */
    byte[] differingLeaves(PartitionSummary other) {
        if (Arrays.equals(root, other.root)) {
            return new byte[0];
        }
        List<Integer> differing = new ArrayList<>();
        for (int i = 0; i < LEAVES; i++) {
            if (!Arrays.equals(leaves, i * HASH_BYTES, (i + 1) * HASH_BYTES,
                    other.leaves, i * HASH_BYTES, (i + 1) * HASH_BYTES)) {
                differing.add(i);
            }
        }
        byte[] result = new byte[differing.size()];
        for (int i = 0; i < result.length; i++) {
            result[i] = (byte) (int) differing.get(i);
        }
        return result;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
