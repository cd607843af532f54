package dev.hangar.metadata.rocksdb;

import dev.hangar.blockstore.BlockRef;
import java.util.function.Consumer;

/**
 * Visits every block reference of the store as one snapshot shows it: the blocks of every version,
 * of every layout 1 record that only the objects family holds, and of every part of an upload in
 * progress. One snapshot for all three families, so a reference that a mutation moves from a part
 * to a version (a completed upload) is seen in exactly one of them. Streams: one record at a time
 * is decoded, and only as far as its blocks.
 *
 * <p>The objects family is scanned too, for keys containing U+0000 only; its other records are
 * copies of versions, whose blocks the versions scan visits already.
 */
final class BlockReferenceWalk {
    private BlockReferenceWalk() {}

    static void run(Database database, Consumer<? super BlockRef> visitor) {
        try (Database.Snapshot snapshot = database.snapshot()) {
            try (Database.Cursor versions = snapshot.scan(Family.VERSIONS)) {
                for (versions.seekToFirst(); versions.valid(); versions.next()) {
                    RecordCodec.peekContent(versions.value()).blocks().forEach(visitor);
                }
            }
            try (Database.Cursor objects = snapshot.scan(Family.OBJECTS)) {
                for (objects.seekToFirst(); objects.valid(); objects.next()) {
                    if (Keys.isUnversionableObject(objects.key())) {
                        RecordCodec.peekContent(objects.value()).blocks().forEach(visitor);
                    }
                }
            }
            try (Database.Cursor parts = snapshot.scan(Family.PARTS)) {
                for (parts.seekToFirst(); parts.valid(); parts.next()) {
                    RecordCodec.peekPartBlocks(parts.value()).forEach(visitor);
                }
            }
        }
    }
}
