package dev.hangar.metadata.rocksdb;

import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;

/**
 * The value format of {@link RocksDbMetadataStore}'s records, for other stores that keep the same
 * records elsewhere (the replicated metadata of a cluster): one format to evolve, one set of
 * decoders that read every older format. Like the RocksDB store, a value omits what its key holds,
 * so each decoder takes those fields back.
 *
 * <p>A facade only: {@link RecordCodec} stays package-private, so that its peeks and format
 * constants are not an API.
 */
public final class RecordFormat {
    private RecordFormat() {}

    public static byte[] encodeBucket(BucketRecord bucket) {
        return RecordCodec.encodeBucket(bucket);
    }

    public static BucketRecord decodeBucket(String name, byte[] value) {
        return RecordCodec.decodeBucket(name, value);
    }

    public static byte[] encodeObject(ObjectVersion version) {
        return RecordCodec.encodeObject(version);
    }

    public static ObjectVersion decodeObject(String bucket, String key, byte[] value) {
        return RecordCodec.decodeObject(bucket, key, value);
    }

    public static byte[] encodeUpload(MultipartUpload upload) {
        return RecordCodec.encodeUpload(upload);
    }

    public static MultipartUpload decodeUpload(String bucket, String key, String uploadId, byte[] value) {
        return RecordCodec.decodeUpload(bucket, key, uploadId, value);
    }

    public static byte[] encodePart(Part part) {
        return RecordCodec.encodePart(part);
    }

    public static Part decodePart(String uploadId, int partNumber, byte[] value) {
        return RecordCodec.decodePart(uploadId, partNumber, value);
    }

    public static byte[] encodeAccessKey(AccessKey key) {
        return RecordCodec.encodeAccessKey(key);
    }

    public static AccessKey decodeAccessKey(String accessKeyId, byte[] value) {
        return RecordCodec.decodeAccessKey(accessKeyId, value);
    }

    public static byte[] encodeBucketConfig(byte[] document) {
        return RecordCodec.encodeBucketConfig(document);
    }

    public static byte[] decodeBucketConfig(byte[] value) {
        return RecordCodec.decodeBucketConfig(value);
    }
}
