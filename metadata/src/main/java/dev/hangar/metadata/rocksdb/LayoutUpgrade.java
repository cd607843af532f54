package dev.hangar.metadata.rocksdb;

import dev.hangar.metadata.MetadataStorageException;
import dev.hangar.metadata.ObjectVersion;
import org.jspecify.annotations.Nullable;

/**
 * Brings a store written by an earlier release to the current key layout when it is opened, before
 * any operation runs. The layout version is kept in the meta family; a store without one is layout
 * 1 (or new, which upgrades trivially).
 *
 * <ul>
 *   <li>Layout 1: the objects family holds the one version of each key (a delete marker, if one
 *       was put, too); there is no versions family.
 *   <li>Layout 2: every version is in the versions family; the objects family holds a copy of the
 *       current version of each key whose current version is not a delete marker.
 * </ul>
 *
 * <p>From 1 to 2, each record of the objects family is copied into the versions family with a new
 * sequence number, and delete markers leave the objects family, in batches; the layout version is
 * written with the last batch. Keys that already have versions were copied by an upgrade that
 * crashed part way, and are skipped, so running it again is safe. Keys containing U+0000, which
 * layout 2 cannot hold in the versions family, stay in the objects family only (S3 clients cannot
 * write such keys; see {@link Keys}).
 */
final class LayoutUpgrade {
    static final long CURRENT_LAYOUT = 2;
    private static final int BATCH_RECORDS = 1_000;

    private LayoutUpgrade() {}

    static void run(Database database, VersionSequence sequence) {
        byte @Nullable [] stored = database.get(Family.META, Keys.META_LAYOUT);
        long layout = stored == null ? 1 : Keys.decodeLong(stored);
        if (layout > CURRENT_LAYOUT) {
            throw new MetadataStorageException(
                    "metadata layout " + layout + " was written by a newer release; this one reads up to "
                            + CURRENT_LAYOUT);
        }
        if (layout == CURRENT_LAYOUT) {
            return;
        }
        Database.Batch batch = database.newBatch();
        try (Database.Cursor cursor = database.cursor(Family.OBJECTS, null)) {
            int pending = 0;
            for (cursor.seekToFirst(); cursor.valid(); cursor.next()) {
                byte[] recordKey = cursor.key();
                Keys.ObjectName name = Keys.objectName(recordKey);
                if (!Keys.isVersionable(name.key())) {
                    continue;
                }
                byte[] versionsOfKey = Keys.versionsOfKey(name.bucket(), name.key());
                if (hasAnyKeyUnder(database, versionsOfKey)) {
                    continue;
                }
                byte[] value = cursor.value();
                ObjectVersion version = RecordCodec.decodeObject(name.bucket(), name.key(), value);
                batch.put(Family.VERSIONS, Keys.version(versionsOfKey, sequence.next(0)), value);
                if (version.isDeleteMarker()) {
                    batch.delete(Family.OBJECTS, recordKey);
                }
                if (++pending == BATCH_RECORDS) {
                    database.commit(batch);
                    batch.close();
                    batch = database.newBatch();
                    pending = 0;
                }
            }
            batch.put(Family.META, Keys.META_LAYOUT, Keys.encodeLong(CURRENT_LAYOUT));
            database.commit(batch);
        } finally {
            batch.close();
        }
    }

    private static boolean hasAnyKeyUnder(Database database, byte[] prefix) {
        try (Database.Cursor cursor = database.cursor(Family.VERSIONS, Keys.pastPrefix(prefix))) {
            cursor.seek(prefix);
            return cursor.valid();
        }
    }
}
