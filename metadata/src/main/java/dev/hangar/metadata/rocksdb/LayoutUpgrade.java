package dev.hangar.metadata.rocksdb;

import dev.hangar.metadata.MetadataStorageException;
import dev.hangar.metadata.ObjectVersion;
import org.jspecify.annotations.Nullable;

/**
 * Brings a store written by an earlier release to the current key layout when it is opened, before
 * any operation runs. The layout version is kept in the meta family; a store without one is layout
 * 1 (or new, which upgrades trivially). Each step runs in turn, so a store of any earlier layout
 * ends at the current one.
 *
 * <ul>
 *   <li>Layout 1: the objects family holds the one version of each key (a delete marker, if one
 *       was put, too); there is no versions family.
 *   <li>Layout 2: every version is in the versions family; the objects family holds a copy of the
 *       current version of each key whose current version is not a delete marker.
 *   <li>Layout 3: layout 2 plus the store-wide {@link Counter}s in the counters family, which
 *       every mutation keeps up to date in its own batch. (The family itself is what keeps an
 *       earlier release out: RocksDB refuses to open a database without naming all its families.)
 * </ul>
 *
 * <p>From 1 to 2, each record of the objects family is copied into the versions family with a new
 * sequence number, and delete markers leave the objects family, in batches; the layout version is
 * written with the last batch. Keys that already have versions were copied by an upgrade that
 * crashed part way, and are skipped, so running it again is safe. Keys containing U+0000, which
 * layout 2 cannot hold in the versions family, stay in the objects family only (S3 clients cannot
 * write such keys; see {@link Keys}).
 *
 * <p>From 2 to 3, one scan counts what the counters count, and the totals are written (as plain
 * values, which later merge operands add to) in one batch with the layout version: a crash before
 * it leaves layout 2, and the count simply runs again.
 */
final class LayoutUpgrade {
    static final long CURRENT_LAYOUT = 3;
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
        if (layout < 2) {
            copyObjectsIntoVersions(database, sequence);
        }
        if (layout < 3) {
            countEverything(database);
        }
    }

    private static void copyObjectsIntoVersions(Database database, VersionSequence sequence) {
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
            batch.put(Family.META, Keys.META_LAYOUT, Keys.encodeLong(2));
            database.commit(batch);
        } finally {
            batch.close();
        }
    }

    /**
     * Counts every version (and every layout 1 record that only the objects family holds),
     * bucket and upload, and writes the totals with layout 3.
     */
    private static void countEverything(Database database) {
        long[] totals = new long[Counter.values().length];
        try (Database.Snapshot snapshot = database.snapshot()) {
            try (Database.Cursor versions = snapshot.scan(Family.VERSIONS)) {
                for (versions.seekToFirst(); versions.valid(); versions.next()) {
                    add(totals, RecordCodec.peekContent(versions.value()));
                }
            }
            try (Database.Cursor objects = snapshot.scan(Family.OBJECTS)) {
                for (objects.seekToFirst(); objects.valid(); objects.next()) {
                    if (Keys.isUnversionableObject(objects.key())) {
                        add(totals, RecordCodec.peekContent(objects.value()));
                    }
                }
            }
            totals[Counter.BUCKETS.ordinal()] = countKeys(snapshot, Family.BUCKETS);
            totals[Counter.UPLOADS.ordinal()] = countKeys(snapshot, Family.UPLOADS);
        }
        try (Database.Batch batch = database.newBatch()) {
            for (Counter counter : Counter.values()) {
                batch.put(Family.COUNTERS, counter.key(), Counter.encode(totals[counter.ordinal()]));
            }
            batch.put(Family.META, Keys.META_LAYOUT, Keys.encodeLong(3));
            database.commit(batch);
        }
    }

    private static void add(long[] totals, RecordCodec.ContentSummary version) {
        if (version.deleteMarker()) {
            totals[Counter.DELETE_MARKERS.ordinal()]++;
        } else {
            totals[Counter.OBJECTS.ordinal()]++;
            totals[Counter.BYTES.ordinal()] += version.size();
        }
    }

    private static long countKeys(Database.Snapshot snapshot, Family family) {
        long count = 0;
        try (Database.Cursor cursor = snapshot.scan(family)) {
            for (cursor.seekToFirst(); cursor.valid(); cursor.next()) {
                count++;
            }
        }
        return count;
    }

    private static boolean hasAnyKeyUnder(Database database, byte[] prefix) {
        try (Database.Cursor cursor = database.cursorUnder(Family.VERSIONS, prefix)) {
            cursor.seek(prefix);
            return cursor.valid();
        }
    }
}
