package dev.hangar.cluster.meta;

import static dev.hangar.metadata.listing.ByteKeys.concat;
import static dev.hangar.metadata.listing.ByteKeys.string;
import static dev.hangar.metadata.listing.ByteKeys.utf8;

import dev.hangar.metadata.ServiceConfigNames;
import dev.hangar.metadata.listing.ByteKeys;

/**
 * Partition and sort keys of the metadata table. A partition key is one tag byte, then for the
 * scoped namespaces a 0 byte and the scope's name; tags differ, so namespaces never collide, and
 * every listing is a range of one partition key, which one replica set holds.
 *
 * <ul>
 *   <li>{@code B}: buckets, sort key the name
 *   <li>{@code C 0 bucket}: bucket configurations, sort key the kind
 *   <li>{@code O 0 bucket}: objects, one entry per version of each key and an index entry per
 *       version id, laid out as {@link ObjectSlots} describes
 *   <li>{@code U 0 bucket}: multipart uploads, sort key {@code key 0 uploadId}, so that uploads
 *       list by key, then by id, as in the single-node store
 *   <li>{@code P 0 uploadId}: parts, sort key the part number as 4 bytes big-endian
 *   <li>{@code K}: access keys, sort key the id
 *   <li>{@code S 0 kind}: configuration documents of the service itself (not of a bucket), sort key the name;
 *       a tag of their own, so they never meet a bucket's keys, and a kind is one partition key, so that
 *       listing a kind is one range
 *   <li>{@code D}: marks of bucket deletions in progress, sort key {@code bucket 0 markId}, so that
 *       a bucket's marks are one range ({@link BucketDeletion})
 * </ul>
 *
 * <p>Names are UTF-8, so byte order is S3's listing order. Bucket names, upload ids and object
 * keys written through the store contain no 0 byte, which is what keeps {@code key 0 uploadId}
 * unambiguous.
 */
final class MetaKeys {
    static final byte BUCKET_TAG = 'B';
    static final byte CONFIG_TAG = 'C';
    static final byte OBJECT_TAG = 'O';
    static final byte UPLOAD_TAG = 'U';
    static final byte PART_TAG = 'P';
    static final byte ACCESS_KEY_TAG = 'K';
    static final byte DELETION_TAG = 'D';
    static final byte SERVICE_CONFIG_TAG = 'S';
    static final byte SEPARATOR = 0;

    private MetaKeys() {}

    static byte[] buckets() {
        return new byte[] {BUCKET_TAG};
    }

    static byte[] accessKeys() {
        return new byte[] {ACCESS_KEY_TAG};
    }

    static byte[] bucketDeletions() {
        return new byte[] {DELETION_TAG};
    }

    /** The first sort key of a bucket's deletion marks; {@link ByteKeys#pastPrefix} of it ends them. */
    static byte[] deletionMarks(String bucket) {
        return concat(utf8(bucketName(bucket)), new byte[] {SEPARATOR});
    }

    static byte[] deletionMark(String bucket, String markId) {
        return concat(deletionMarks(bucket), utf8(markId));
    }

    static byte[] configs(String bucket) {
        return scoped(CONFIG_TAG, bucketName(bucket));
    }

    static byte[] serviceConfigs(String kind) {
        return scoped(SERVICE_CONFIG_TAG, ServiceConfigNames.requireKind(kind));
    }

    static byte[] serviceConfigName(String name) {
        return utf8(ServiceConfigNames.requireName(name));
    }

    static byte[] objects(String bucket) {
        return scoped(OBJECT_TAG, bucketName(bucket));
    }

    static byte[] uploads(String bucket) {
        return scoped(UPLOAD_TAG, bucketName(bucket));
    }

    static byte[] parts(String uploadId) {
        return scoped(PART_TAG, uploadIdOf(uploadId));
    }

    /** The name after the tag and separator of a scoped partition key. */
    static String scope(byte[] partitionKey) {
        return string(partitionKey, 2, partitionKey.length);
    }

    static byte[] bucket(String name) {
        return utf8(bucketName(name));
    }

    /** The bucket name a sort key of the buckets partition ({@link #bucket}) holds. */
    static String bucketOf(byte[] sortKey) {
        return string(sortKey, 0, sortKey.length);
    }

    static byte[] configKind(String kind) {
        if (kind.isEmpty()) {
            throw new IllegalArgumentException("configuration kind must not be empty");
        }
        return utf8(kind);
    }

    /** The sort key of an object key that a mutation writes: refused if it contains U+0000. */
    static byte[] writableObjectKey(String key) {
        if (key.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("object key must not contain U+0000");
        }
        return utf8(key);
    }

    static byte[] upload(String key, String uploadId) {
        return concat(writableObjectKey(key), new byte[] {SEPARATOR}, utf8(uploadIdOf(uploadId)));
    }

    static byte[] partNumber(int partNumber) {
        return ByteKeys.int32(partNumber);
    }

    static int partNumber(byte[] sortKey) {
        return ByteKeys.int32At(sortKey);
    }

    private static byte[] scoped(byte tag, String name) {
        return concat(new byte[] {tag, SEPARATOR}, utf8(name));
    }

    private static String bucketName(String name) {
        if (name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("bucket name must not contain U+0000");
        }
        return name;
    }

    private static String uploadIdOf(String uploadId) {
        if (uploadId.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("upload id must not contain U+0000");
        }
        return uploadId;
    }
}
