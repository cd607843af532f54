package dev.hangar.metadata.listing;

/**
 * Where the object key sits in the record keys of one listing: after a scope that every record of
 * the range starts with (a bucket's {@code bucket 0} in a column family shared by all buckets,
 * nothing in a partition key of the bucket's own), either as the whole rest of the record key or
 * followed by a 0 byte and what tells the key's records apart. Object keys are UTF-8, so byte order
 * is S3's order, and the first 0 byte after the scope ends a key: a key written through a store
 * holds no U+0000.
 */
public final class KeyLayout {
    private static final byte SEPARATOR = 0;

    private final byte[] scope;
    private final boolean keyIsRecord;

    private KeyLayout(byte[] scope, boolean keyIsRecord) {
        this.scope = scope.clone();
        this.keyIsRecord = keyIsRecord;
    }

    /**
     * One record per key, whose key is the scope and the object key: the single node's current
     * objects. A key there may hold U+0000 (an early release wrote such keys).
     */
    public static KeyLayout keyIsRecord(byte[] scope) {
        return new KeyLayout(scope, true);
    }

    /**
     * Records {@code scope key} and {@code scope key 0 ...}: versions (a sequence or an order and
     * id after the 0 byte) and uploads (their id after it).
     */
    public static KeyLayout keyThenSeparator(byte[] scope) {
        return new KeyLayout(scope, false);
    }

    int scopeLength() {
        return scope.length;
    }

    /** Where the records of {@code key}, and of every key it is a prefix of, start. */
    public byte[] at(byte[] key) {
        return ByteKeys.concat(scope, key);
    }

    /** Where the object key ends in {@code recordKey}, a key of this range. */
    public int keyEnd(byte[] recordKey) {
        if (!keyIsRecord) {
            for (int i = scope.length; i < recordKey.length; i++) {
                if (recordKey[i] == SEPARATOR) {
                    return i;
                }
            }
        }
        return recordKey.length;
    }

    /** The first record key past every record of {@code key}: where the next key's records may start. */
    public byte[] pastKey(byte[] key) {
        // The next key in S3's order is key + U+0000; keys with a separator list their records
        // between key 0 and key 1.
        return keyIsRecord
                ? ByteKeys.justAfter(at(key))
                : ByteKeys.concat(scope, key, new byte[] {SEPARATOR + 1});
    }

    /** Whether {@code recordKey} is a record of the key whose records start at {@code keyAt} ({@link #at}). */
    boolean isOf(byte[] recordKey, byte[] keyAt) {
        return ByteKeys.startsWith(recordKey, keyAt) && keyEnd(recordKey) == keyAt.length;
    }
}
