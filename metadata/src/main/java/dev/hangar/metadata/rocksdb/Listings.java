package dev.hangar.metadata.rocksdb;

import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.ListedVersion;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.metadata.StoreLocks;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The S3 listings of {@link RocksDbMetadataStore}: current objects (the objects family), versions
 * (the versions family, newest first per key), uploads and parts, each a {@link RollupScan} that
 * follows S3's marker rules. Reads only; each holds the store's open lock while it reads.
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
        byte[] start = query.after() == null
                ? scope
                : RollupScan.after(
                        Keys.concat(scope, Keys.utf8(query.after())),
                        RollupScan.isCommonPrefix(query.after(), query.prefix(), query.delimiter()));
        RollupScan.Page page;
        try (var held = locks.open()) {
            page = RollupScan.scan(
                    database, Family.OBJECTS, scope, query.prefix(), query.delimiter(), start, query.maxKeys(),
                    recordKey -> recordKey.length);
        }
        List<ObjectVersion> entries = new ArrayList<>();
        List<String> commonPrefixes = new ArrayList<>();
        String lastName = null;
        for (RollupScan.Item item : page.items()) {
            switch (item) {
                case RollupScan.Item.Entry entry -> {
                    String key = Keys.objectKey(entry.recordKey(), scope.length);
                    entries.add(RecordCodec.decodeObject(bucket, key, entry.value()));
                    lastName = key;
                }
                case RollupScan.Item.CommonPrefix common -> {
                    commonPrefixes.add(common.prefix());
                    lastName = common.prefix();
                }
            }
        }
        return new ObjectListing(entries, commonPrefixes, page.truncated(), page.truncated() ? lastName : null);
    }

    VersionListing listVersions(String bucket, VersionQuery query) {
        byte[] scope = Keys.bucketScope(bucket);
        RollupScan.Page page;
        VersionsStart start;
        try (var held = locks.open()) {
            start = versionsStart(scope, query);
            page = RollupScan.scan(
                    database, Family.VERSIONS, scope, query.prefix(), query.delimiter(), start.recordKey(),
                    query.maxKeys(), Keys::versionKeyEnd);
        }
        List<ListedVersion> versions = new ArrayList<>();
        List<String> commonPrefixes = new ArrayList<>();
        // The newest version of a key is the first one listed, unless the page starts inside the key.
        String previousKey = start.insideKey();
        String nextKeyMarker = null;
        String nextVersionIdMarker = null;
        for (RollupScan.Item item : page.items()) {
            switch (item) {
                case RollupScan.Item.Entry entry -> {
                    String key = Keys.versionKey(entry.recordKey(), scope.length);
                    ObjectVersion version = RecordCodec.decodeObject(bucket, key, entry.value());
                    versions.add(new ListedVersion(version, !key.equals(previousKey)));
                    previousKey = key;
                    nextKeyMarker = key;
                    nextVersionIdMarker = version.versionId();
                }
                case RollupScan.Item.CommonPrefix common -> {
                    commonPrefixes.add(common.prefix());
                    previousKey = null;
                    nextKeyMarker = common.prefix();
                    nextVersionIdMarker = null;
                }
            }
        }
        return page.truncated()
                ? new VersionListing(versions, commonPrefixes, true, nextKeyMarker, nextVersionIdMarker)
                : new VersionListing(versions, commonPrefixes, false, null, null);
    }

    /**
     * Where a version listing starts.
     *
     * @param recordKey the first versions-family key it may return; null if none
     * @param insideKey the key whose newer versions the start skips, if it starts inside one
     */
    private record VersionsStart(byte @Nullable [] recordKey, @Nullable String insideKey) {}

    /** The first versions-family key a listing may return, following S3's marker rules. */
    private VersionsStart versionsStart(byte[] scope, VersionQuery query) {
        String keyMarker = query.keyMarker();
        if (keyMarker == null) {
            // S3 ignores a version id marker without a key marker.
            return new VersionsStart(scope, null);
        }
        byte[] markerKey = Keys.concat(scope, Keys.utf8(keyMarker));
        if (RollupScan.isCommonPrefix(keyMarker, query.prefix(), query.delimiter())) {
            return new VersionsStart(Keys.pastPrefix(markerKey), null);
        }
        // Markers come from clients: spelled out here rather than validated like stored names.
        byte[] versionsOfMarkerKey = Keys.concat(markerKey, new byte[] {Keys.SEPARATOR});
        byte[] pastMarkerKey = Keys.pastPrefix(versionsOfMarkerKey);
        String versionIdMarker = query.versionIdMarker();
        if (versionIdMarker == null || !Keys.isVersionable(keyMarker)) {
            return new VersionsStart(pastMarkerKey, null);
        }
        return VersionRecords.find(database, versionsOfMarkerKey, versionIdMarker)
                .map(marker -> new VersionsStart(Keys.justAfter(marker.recordKey()), keyMarker))
                // The marker version is gone (deleted since the previous page): resume after its key.
                .orElseGet(() -> new VersionsStart(pastMarkerKey, null));
    }

    PartListing listParts(String uploadId, int afterPartNumber, int maxParts) {
        byte[] scope = Keys.partsOf(uploadId);
        List<Part> parts = new ArrayList<>();
        boolean truncated = false;
        if (maxParts <= 0) {
            return new PartListing(parts, false, 0);
        }
        try (var held = locks.open(); Database.Cursor cursor = database.cursor(Family.PARTS, Keys.pastPrefix(scope))) {
            cursor.seek(Keys.part(uploadId, Math.max(afterPartNumber, 0) + 1));
            for (; cursor.valid(); cursor.next()) {
                byte[] key = cursor.key();
                if (parts.size() == maxParts) {
                    truncated = true;
                    break;
                }
                parts.add(RecordCodec.decodePart(uploadId, Keys.partNumber(key), cursor.value()));
            }
        }
        return new PartListing(parts, truncated, truncated ? parts.getLast().partNumber() : 0);
    }

    UploadListing listUploads(
            String bucket,
            String prefix,
            @Nullable String delimiter,
            @Nullable String keyMarker,
            @Nullable String uploadIdMarker,
            int maxUploads) {
        String listedPrefix = prefix == null ? "" : prefix;
        String listedDelimiter = delimiter == null || delimiter.isEmpty() ? null : delimiter;
        byte[] scope = Keys.bucketScope(bucket);
        byte[] start = uploadsStart(scope, listedPrefix, listedDelimiter, keyMarker, uploadIdMarker);
        RollupScan.Page page;
        try (var held = locks.open()) {
            page = RollupScan.scan(
                    database, Family.UPLOADS, scope, listedPrefix, listedDelimiter, start, maxUploads,
                    Keys::uploadKeyEnd);
        }
        List<MultipartUpload> uploads = new ArrayList<>();
        List<String> commonPrefixes = new ArrayList<>();
        String nextKeyMarker = null;
        String nextUploadIdMarker = null;
        for (RollupScan.Item item : page.items()) {
            switch (item) {
                case RollupScan.Item.Entry entry -> {
                    Keys.UploadName name = Keys.uploadName(entry.recordKey());
                    uploads.add(RecordCodec.decodeUpload(name.bucket(), name.key(), name.uploadId(), entry.value()));
                    nextKeyMarker = name.key();
                    nextUploadIdMarker = name.uploadId();
                }
                case RollupScan.Item.CommonPrefix common -> {
                    commonPrefixes.add(common.prefix());
                    nextKeyMarker = common.prefix();
                    nextUploadIdMarker = null;
                }
            }
        }
        return page.truncated()
                ? new UploadListing(uploads, commonPrefixes, true, nextKeyMarker, nextUploadIdMarker)
                : new UploadListing(uploads, commonPrefixes, false, null, null);
    }

    /** The first uploads-family key a listing may return, following S3's marker rules. */
    private static byte @Nullable [] uploadsStart(
            byte[] scope,
            String prefix,
            @Nullable String delimiter,
            @Nullable String keyMarker,
            @Nullable String uploadIdMarker) {
        if (keyMarker == null) {
            // S3 ignores an upload id marker without a key marker.
            return scope;
        }
        if (RollupScan.isCommonPrefix(keyMarker, prefix, delimiter)) {
            return Keys.pastPrefix(Keys.concat(scope, Keys.utf8(keyMarker)));
        }
        // Markers come from clients: spelled out here rather than validated like stored names.
        byte[] uploadsOfMarkerKey = Keys.concat(scope, Keys.utf8(keyMarker), new byte[] {Keys.SEPARATOR});
        if (uploadIdMarker == null) {
            // Keys strictly greater than the marker: past every upload of the marker key itself.
            return Keys.pastPrefix(uploadsOfMarkerKey);
        }
        return Keys.justAfter(Keys.concat(uploadsOfMarkerKey, Keys.utf8(uploadIdMarker)));
    }
}
