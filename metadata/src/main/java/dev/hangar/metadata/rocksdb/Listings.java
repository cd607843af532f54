package dev.hangar.metadata.rocksdb;

import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.StoreLocks;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.metadata.listing.ByteKeys;
import dev.hangar.metadata.listing.KeyLayout;
import dev.hangar.metadata.listing.KeyRange;
import dev.hangar.metadata.listing.KeyReader;
import dev.hangar.metadata.listing.ListingRules;
import dev.hangar.metadata.listing.VersionReader;
import org.jspecify.annotations.Nullable;

/**
 * The S3 listings of {@link RocksDbMetadataStore}: {@link ListingRules} over a cursor of one family,
 * bounded to the listing's prefix in the bucket — current objects (the objects family, one record
 * per key), versions (the versions family, newest first per key), uploads and parts. Reads only;
 * each holds the store's open lock while it reads.
 */
@SuppressWarnings("try") // Lock holders are try-with-resources variables that the body never reads.
final class Listings {
    private final Database database;
    private final StoreLocks locks;

    Listings(Database database, StoreLocks locks) {
        this.database = database;
        this.locks = locks;
    }

    ObjectListing listObjects(String bucket, ListQuery query) {
        byte[] scope = Keys.bucketScope(bucket);
        try (var held = locks.open(); Database.Cursor cursor = cursorUnder(Family.OBJECTS, scope, query.prefix())) {
            KeyRange range = new KeyRange(cursor, KeyLayout.keyIsRecord(scope));
            return ListingRules.objects(query, range,
                    KeyReader.ofRecords(range, (key, recordKey, value) -> RecordCodec.decodeObject(bucket, key, value)));
        }
    }

    VersionListing listVersions(String bucket, VersionQuery query) {
        byte[] scope = Keys.bucketScope(bucket);
        try (var held = locks.open(); Database.Cursor cursor = cursorUnder(Family.VERSIONS, scope, query.prefix())) {
            KeyRange range = new KeyRange(cursor, KeyLayout.keyThenSeparator(scope));
            return ListingRules.versions(query, range, VersionReader.ofRecords(range,
                    (key, recordKey, value) -> RecordCodec.decodeObject(bucket, key, value), RecordCodec::peekVersionId));
        }
    }

    PartListing listParts(String uploadId, int afterPartNumber, int maxParts) {
        byte[] scope = Keys.partsOf(uploadId);
        try (var held = locks.open(); Database.Cursor cursor = database.cursor(Family.PARTS, ByteKeys.pastPrefix(scope))) {
            return ListingRules.parts(afterPartNumber, maxParts, cursor, scope,
                    (partNumber, value) -> RecordCodec.decodePart(uploadId, partNumber, value));
        }
    }

    UploadListing listUploads(
            String bucket,
            String prefix,
            @Nullable String delimiter,
            @Nullable String keyMarker,
            @Nullable String uploadIdMarker,
            int maxUploads) {
        byte[] scope = Keys.bucketScope(bucket);
        try (var held = locks.open();
                Database.Cursor cursor = cursorUnder(Family.UPLOADS, scope, prefix == null ? "" : prefix)) {
            KeyRange range = new KeyRange(cursor, KeyLayout.keyThenSeparator(scope));
            return ListingRules.uploads(prefix, delimiter, keyMarker, uploadIdMarker, maxUploads, range,
                    KeyReader.ofRecords(range, (key, recordKey, value) ->
                            RecordCodec.decodeUpload(bucket, key, Keys.uploadId(recordKey), value)));
        }
    }

    /** A cursor of the family that ends where the bucket's keys under the prefix end. */
    private Database.Cursor cursorUnder(Family family, byte[] scope, String prefix) {
        return database.cursor(family, ByteKeys.pastPrefix(ByteKeys.concat(scope, ByteKeys.utf8(prefix))));
    }
}
