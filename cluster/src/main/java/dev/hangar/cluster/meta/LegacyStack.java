package dev.hangar.cluster.meta;

import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.rocksdb.RecordFormat;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the one entry per object key that the previous release kept at sort key {@code K}: the
 * key's whole version stack, newest first. Only read: a key's first mutation replaces it by one
 * entry per version ({@link ObjectSlots}) and a tombstone, in the same multi-entry write.
 *
 * <p>Format: a format byte (1), a 4-byte count, then per version a 4-byte length and the version
 * in {@link RecordFormat}'s object format. Versions get orders from their place in the stack, the
 * newest {@code count}, the oldest 1: below every order a new version is given (a clock's
 * microseconds), so whatever is written after the upgrade is newer.
 */
final class LegacyStack {
    static final byte FORMAT = 1;

    private LegacyStack() {}

    /** A version of the stack with the order its place gives it. */
    record Placed(ObjectVersion version, long order) {}

    static List<Placed> decode(String bucket, String key, byte[] value) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            int format = in.readUnsignedByte();
            if (format != FORMAT) {
                throw new IllegalArgumentException("unknown version stack format " + format);
            }
            int count = in.readInt();
            if (count < 0) {
                throw new IllegalArgumentException("negative version count " + count);
            }
            List<Placed> versions = new ArrayList<>(Math.min(count, 1024));
            for (int i = 0; i < count; i++) {
                versions.add(new Placed(RecordFormat.decodeObject(bucket, key, in.readNBytes(in.readInt())), count - i));
            }
            return versions;
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated version stack", e);
        }
    }
}
