package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Entry;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.rocksdb.RecordFormat;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Listings of the records other than objects: buckets, access keys, multipart uploads and parts,
 * each a range of one partition key ({@link MetaKeys}) read a quorum page at a time.
 */
final class RecordListings {
    private static final int MAX_PAGE = 1000;

    private final EntrySource source;

    RecordListings(EntrySource source) {
        this.source = source;
    }

    List<BucketRecord> listBuckets() {
        List<BucketRecord> buckets = new ArrayList<>();
        RangeCursor cursor = new RangeCursor(source, MetaKeys.buckets(), new byte[0], MAX_PAGE, "list buckets");
        for (Entry entry = cursor.next(); entry != null; entry = cursor.next()) {
            byte[] name = entry.sortKey();
            buckets.add(RecordFormat.decodeBucket(MetaKeys.string(name, 0, name.length), entry.value()));
        }
        return buckets;
    }

    List<AccessKey> listAccessKeys() {
        List<AccessKey> keys = new ArrayList<>();
        RangeCursor cursor = new RangeCursor(source, MetaKeys.accessKeys(), new byte[0], MAX_PAGE, "list access keys");
        for (Entry entry = cursor.next(); entry != null; entry = cursor.next()) {
            byte[] id = entry.sortKey();
            keys.add(RecordFormat.decodeAccessKey(MetaKeys.string(id, 0, id.length), entry.value()));
        }
        return keys;
    }

    PartListing listParts(String uploadId, int afterPartNumber, int maxParts) {
        List<Part> parts = new ArrayList<>();
        long first = (long) Math.max(afterPartNumber, 0) + 1;
        if (maxParts <= 0 || first > Integer.MAX_VALUE) {
            return new PartListing(parts, false, 0);
        }
        RangeCursor cursor = new RangeCursor(source, MetaKeys.parts(uploadId), MetaKeys.partNumber((int) first),
                Math.min(maxParts + 1, MAX_PAGE), "list parts of " + uploadId);
        boolean truncated = false;
        for (Entry entry = cursor.next(); entry != null; entry = cursor.next()) {
            if (parts.size() == maxParts) {
                truncated = true;
                break;
            }
            parts.add(RecordFormat.decodePart(uploadId, MetaKeys.partNumber(entry.sortKey()), entry.value()));
        }
        return new PartListing(parts, truncated, truncated ? parts.getLast().partNumber() : 0);
    }

    UploadListing listUploads(String bucket, String prefix, @Nullable String delimiter, @Nullable String keyMarker,
            @Nullable String uploadIdMarker, int maxUploads) {
        String listedPrefix = prefix == null ? "" : prefix;
        String listedDelimiter = delimiter == null || delimiter.isEmpty() ? null : delimiter;
        List<MultipartUpload> uploads = new ArrayList<>();
        List<String> commonPrefixes = new ArrayList<>();
        if (maxUploads <= 0) {
            return new UploadListing(uploads, commonPrefixes, false, null, null);
        }
        byte[] prefixBytes = MetaKeys.utf8(listedPrefix);
        byte[] start = uploadsStart(listedPrefix, listedDelimiter, keyMarker, uploadIdMarker);
        RangeCursor cursor = new RangeCursor(source, MetaKeys.uploads(bucket), MetaKeys.max(prefixBytes, start),
                MetaKeys.pastPrefix(prefixBytes), Math.min(maxUploads + 1, MAX_PAGE), "list uploads of " + bucket);
        Rollup rollup = new Rollup(cursor, prefixBytes, listedDelimiter == null ? null : MetaKeys.utf8(listedDelimiter),
                MetaKeys::uploadKeyEnd, entry -> true);
        String nextKeyMarker = null;
        String nextUploadIdMarker = null;
        boolean truncated = false;
        for (Rollup.Item item = rollup.next(); item != null; item = rollup.next()) {
            if (uploads.size() + commonPrefixes.size() == maxUploads) {
                truncated = true;
                break;
            }
            switch (item) {
                case Rollup.Item.Listed listed -> {
                    byte[] sortKey = listed.entry().sortKey();
                    int keyEnd = MetaKeys.uploadKeyEnd(sortKey);
                    String key = MetaKeys.string(sortKey, 0, keyEnd);
                    String uploadId = MetaKeys.string(sortKey, keyEnd + 1, sortKey.length);
                    uploads.add(RecordFormat.decodeUpload(bucket, key, uploadId, listed.entry().value()));
                    nextKeyMarker = key;
                    nextUploadIdMarker = uploadId;
                }
                case Rollup.Item.CommonPrefix common -> {
                    commonPrefixes.add(common.prefix());
                    nextKeyMarker = common.prefix();
                    nextUploadIdMarker = null;
                }
            }
        }
        return truncated
                ? new UploadListing(uploads, commonPrefixes, true, nextKeyMarker, nextUploadIdMarker)
                : new UploadListing(uploads, commonPrefixes, false, null, null);
    }

    /** The first upload sort key a listing may return, following S3's marker rules. */
    private static byte[] uploadsStart(
            String prefix, @Nullable String delimiter, @Nullable String keyMarker, @Nullable String uploadIdMarker) {
        if (keyMarker == null) {
            // S3 ignores an upload id marker without a key marker.
            return new byte[0];
        }
        if (Rollup.isCommonPrefix(keyMarker, prefix, delimiter)) {
            return after(MetaKeys.utf8(keyMarker), true);
        }
        // Markers come from clients: spelled out rather than validated like stored names.
        byte[] uploadsOfMarkerKey = MetaKeys.concat(MetaKeys.utf8(keyMarker), new byte[] {MetaKeys.SEPARATOR});
        if (uploadIdMarker == null) {
            return after(uploadsOfMarkerKey, true);
        }
        return MetaKeys.justAfter(MetaKeys.concat(uploadsOfMarkerKey, MetaKeys.utf8(uploadIdMarker)));
    }

    /**
     * The first sort key after a marker, exclusive: past everything under it when it is a common
     * prefix (keys are UTF-8, so it has a byte below 0xFF to increment), else just after it.
     */
    private static byte[] after(byte[] marker, boolean isCommonPrefix) {
        byte[] past = isCommonPrefix ? MetaKeys.pastPrefix(marker) : MetaKeys.justAfter(marker);
        return past == null ? MetaKeys.justAfter(marker) : past;
    }
}
