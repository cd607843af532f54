package dev.hangar.metadata.rocksdb;

import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.state.StoredVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Scans of one key's records in the versions family, newest first, decoding on demand: a search
 * for an id reads only the id of each record.
 */
final class VersionRecords {
    private VersionRecords() {}

    /** A record of the versions family: {@code bucket 0 key 0 sequence} and its value. */
    record Found(byte[] recordKey, byte[] value) {
        long sequence() {
            return Keys.versionSequence(recordKey);
        }

        String versionId() {
            return RecordCodec.peekVersionId(value);
        }

        ObjectVersion decode(String bucket, String key) {
            return RecordCodec.decodeObject(bucket, key, value);
        }

        StoredVersion stored(String bucket, String key) {
            return new StoredVersion(decode(bucket, key), sequence());
        }
    }

    /**
     * Every record under {@code versionsOfKey}. Only keys exactly one sequence longer count: a
     * prefix spelled from a client's marker may contain a 0 byte, but no stored key does.
     */
    static List<Found> all(Database database, byte[] versionsOfKey) {
        List<Found> versions = new ArrayList<>();
        try (Database.Cursor cursor = database.cursorUnder(Family.VERSIONS, versionsOfKey)) {
            for (cursor.seek(versionsOfKey); cursor.valid(); cursor.next()) {
                byte[] recordKey = cursor.key();
                if (isVersionKeyOf(recordKey, versionsOfKey)) {
                    versions.add(new Found(recordKey, cursor.value()));
                }
            }
        }
        return versions;
    }

    static Optional<Found> newest(Database database, byte[] versionsOfKey) {
        try (Database.Cursor cursor = database.cursorUnder(Family.VERSIONS, versionsOfKey)) {
            for (cursor.seek(versionsOfKey); cursor.valid(); cursor.next()) {
                byte[] recordKey = cursor.key();
                if (isVersionKeyOf(recordKey, versionsOfKey)) {
                    return Optional.of(new Found(recordKey, cursor.value()));
                }
            }
        }
        return Optional.empty();
    }

    /** The newest record of the key that has this id. */
    static Optional<Found> find(Database database, byte[] versionsOfKey, String versionId) {
        try (Database.Cursor cursor = database.cursorUnder(Family.VERSIONS, versionsOfKey)) {
            for (cursor.seek(versionsOfKey); cursor.valid(); cursor.next()) {
                byte[] recordKey = cursor.key();
                byte[] value = cursor.value();
                if (isVersionKeyOf(recordKey, versionsOfKey) && RecordCodec.peekVersionId(value).equals(versionId)) {
                    return Optional.of(new Found(recordKey, value));
                }
            }
        }
        return Optional.empty();
    }

    private static boolean isVersionKeyOf(byte[] recordKey, byte[] versionsOfKey) {
        return recordKey.length == versionsOfKey.length + Long.BYTES;
    }
}
