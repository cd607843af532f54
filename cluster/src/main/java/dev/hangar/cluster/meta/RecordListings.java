package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Entry;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.ServiceConfigNames;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.listing.ByteKeys;
import dev.hangar.metadata.listing.KeyLayout;
import dev.hangar.metadata.listing.KeyRange;
import dev.hangar.metadata.listing.KeyReader;
import dev.hangar.metadata.listing.ListingRules;
import dev.hangar.metadata.rocksdb.RecordFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import org.jspecify.annotations.Nullable;

/**
 * Listings of the records other than objects: buckets, access keys, service configurations,
 * multipart uploads and parts, each a range of one partition key ({@link MetaKeys}) read a quorum
 * page at a time; uploads and parts page by {@link ListingRules}, as on a single node.
 */
final class RecordListings {
    private static final int MAX_PAGE = 1000;
    /** Uploads sort as {@code key 0 uploadId} in their bucket's partition key, as in the single node's family. */
    private static final KeyLayout UPLOADS = KeyLayout.keyThenSeparator(new byte[0]);

    private final EntrySource source;

    RecordListings(EntrySource source) {
        this.source = source;
    }

    List<BucketRecord> listBuckets() {
        List<BucketRecord> buckets = new ArrayList<>();
        RangeCursor cursor = new RangeCursor(source, MetaKeys.buckets(), new byte[0], MAX_PAGE, "list buckets");
        for (Entry entry = cursor.take(); entry != null; entry = cursor.take()) {
            byte[] name = entry.sortKey();
            buckets.add(RecordFormat.decodeBucket(ByteKeys.string(name, 0, name.length), entry.value()));
        }
        return buckets;
    }

    List<AccessKey> listAccessKeys() {
        List<AccessKey> keys = new ArrayList<>();
        RangeCursor cursor = new RangeCursor(source, MetaKeys.accessKeys(), new byte[0], MAX_PAGE, "list access keys");
        for (Entry entry = cursor.take(); entry != null; entry = cursor.take()) {
            byte[] id = entry.sortKey();
            keys.add(AccessKeyValue.decodeKey(ByteKeys.string(id, 0, id.length), entry.value()));
        }
        return keys;
    }

    /** A kind's documents, the whole range of its partition key: a quorum read, merged as any range read is. */
    SortedMap<String, byte[]> listServiceConfigs(String kind) {
        SortedMap<String, byte[]> documents = ServiceConfigNames.newListing();
        RangeCursor cursor = new RangeCursor(source, MetaKeys.serviceConfigs(kind), new byte[0], MAX_PAGE,
                "list service configurations " + kind);
        for (Entry entry = cursor.take(); entry != null; entry = cursor.take()) {
            byte[] name = entry.sortKey();
            documents.put(ByteKeys.string(name, 0, name.length), RecordFormat.decodeBucketConfig(entry.value()));
        }
        return documents;
    }

    PartListing listParts(String uploadId, int afterPartNumber, int maxParts) {
        RangeCursor cursor = new RangeCursor(source, MetaKeys.parts(uploadId), new byte[0],
                Math.min(maxParts + 1, MAX_PAGE), "list parts of " + uploadId);
        return ListingRules.parts(afterPartNumber, maxParts, cursor, new byte[0],
                (partNumber, value) -> RecordFormat.decodePart(uploadId, partNumber, value));
    }

    UploadListing listUploads(String bucket, String prefix, @Nullable String delimiter, @Nullable String keyMarker,
            @Nullable String uploadIdMarker, int maxUploads) {
        byte[] prefixBytes = ByteKeys.utf8(prefix == null ? "" : prefix);
        RangeCursor cursor = new RangeCursor(source, MetaKeys.uploads(bucket), prefixBytes,
                ByteKeys.pastPrefix(prefixBytes), Math.min(maxUploads + 1, MAX_PAGE), "list uploads of " + bucket);
        KeyRange range = new KeyRange(cursor, UPLOADS);
        return ListingRules.uploads(prefix, delimiter, keyMarker, uploadIdMarker, maxUploads, range,
                KeyReader.ofRecords(range, (key, sortKey, value) -> RecordFormat.decodeUpload(bucket, key,
                        ByteKeys.string(sortKey, UPLOADS.keyEnd(sortKey) + 1, sortKey.length), value)));
    }
}
