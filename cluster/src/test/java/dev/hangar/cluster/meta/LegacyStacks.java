package dev.hangar.cluster.meta;

import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.rocksdb.RecordFormat;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Writes an object key's versions as the previous release did: one entry at sort key {@code K},
 * its whole stack newest first (format 1, a count, each version length-prefixed in {@link
 * RecordFormat}'s object format). What {@link LegacyStack} reads.
 */
final class LegacyStacks {
    private LegacyStacks() {}

    static byte[] encode(List<ObjectVersion> newestFirst) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(1);
            out.writeInt(newestFirst.size());
            for (ObjectVersion version : newestFirst) {
                byte[] encoded = RecordFormat.encodeObject(version);
                out.writeInt(encoded.length);
                out.write(encoded);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
