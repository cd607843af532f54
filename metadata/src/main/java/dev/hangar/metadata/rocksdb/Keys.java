package dev.hangar.metadata.rocksdb;

import static dev.hangar.metadata.listing.ByteKeys.concat;
import static dev.hangar.metadata.listing.ByteKeys.string;
import static dev.hangar.metadata.listing.ByteKeys.utf8;

import dev.hangar.blockstore.BlockId;
import dev.hangar.metadata.ServiceConfigNames;
import dev.hangar.metadata.listing.ByteKeys;
import java.nio.ByteBuffer;
import java.util.HexFormat;

/**
 * Key layouts of the column families. Names are UTF-8 so that byte order is S3's listing order;
 * a 0 byte separates the parts of a composite key, and sorts below every other byte, so that
 * {@code a 0 ...} comes before {@code ab 0 ...}.
 *
 * <ul>
 *   <li>buckets: {@code name}
 *   <li>objects: {@code bucket 0 key}
 *   <li>versions: {@code bucket 0 key 0 sequence}, the sequence as 8 bytes big-endian, inverted
 *       (bitwise not), so that the versions of a key sort newest first
 *   <li>uploads: {@code bucket 0 key 0 uploadId}
 *   <li>parts: {@code uploadId 0 partNumber} (4 bytes, big-endian: numeric order is byte order)
 *   <li>garbage: the 16 bytes of the block id
 *   <li>access_keys: {@code accessKeyId}
 *   <li>bucket_configs: {@code bucket 0 kind}
 *   <li>service_configs: {@code kind 0 name} (neither holds a 0 byte: {@link
 *       dev.hangar.metadata.ServiceConfigNames}), so that the documents of a kind are one prefix
 *   <li>meta: a name ({@code layout}, {@code sequence})
 * </ul>
 *
 * <p>Bucket names and upload ids never contain a 0 byte (S3 forbids it in bucket names, and upload
 * ids are ours). An object key must not contain one either, or the versions of {@code a} could not
 * be told apart from those of {@code a 0 b}: {@code bucket 0 a 0} would be a prefix of both.
 * (Layout 1 allowed one in the objects family, where the key ends the record key; such a legacy
 * record can still be read and deleted there, see {@code RocksDbMetadataStore}.)
 */
final class Keys {
    static final byte SEPARATOR = 0;
    private static final HexFormat HEX = HexFormat.of();
    private static final int BLOCK_ID_BYTES = 16;
    private static final int SEQUENCE_BYTES = 8;
    static final byte[] META_LAYOUT = utf8("layout");
    static final byte[] META_SEQUENCE = utf8("sequence");
    /** The log position of the last replicated-log entry applied, in a store that applies a log's entries. */
    static final byte[] META_APPLIED = utf8("applied");

    private Keys() {}

    static byte[] bucket(String name) {
        return utf8(requireNoSeparator(name, "bucket name"));
    }

    /** The prefix of every object and upload key of a bucket. */
    static byte[] bucketScope(String bucket) {
        return concat(bucket(bucket), new byte[] {SEPARATOR});
    }

    static byte[] object(String bucket, String key) {
        return concat(bucketScope(bucket), utf8(key));
    }

    /** The bucket and key of an objects-family key: the bucket name ends at the first separator. */
    static ObjectName objectName(byte[] raw) {
        int bucketEnd = indexOf(raw, SEPARATOR);
        return new ObjectName(string(raw, 0, bucketEnd), string(raw, bucketEnd + 1, raw.length));
    }

    /** The identity of an object as its objects-family key spells it. */
    record ObjectName(String bucket, String key) {}

    /** Whether the versions family can hold versions of this key: it contains no 0 byte. */
    static boolean isVersionable(String key) {
        return key.indexOf('\0') < 0;
    }

    /**
     * Whether an objects-family key holds an object key containing U+0000: a layout 1 record that
     * only the objects family holds, since the versions family cannot (see {@link LayoutUpgrade}).
     */
    static boolean isUnversionableObject(byte[] raw) {
        int bucketEnd = indexOf(raw, SEPARATOR);
        for (int i = bucketEnd + 1; i < raw.length; i++) {
            if (raw[i] == SEPARATOR) {
                return true;
            }
        }
        return false;
    }

    /** The prefix of the version keys of one object key: {@code bucket 0 key 0}. */
    static byte[] versionsOfKey(String bucket, String key) {
        return concat(bucketScope(bucket), utf8(requireNoSeparator(key, "object key")), new byte[] {SEPARATOR});
    }

    static byte[] version(String bucket, String key, long sequence) {
        return concat(versionsOfKey(bucket, key), sequenceBytes(sequence));
    }

    /** The version key of {@code sequence} under a prefix from {@link #versionsOfKey}. */
    static byte[] version(byte[] versionsOfKey, long sequence) {
        return concat(versionsOfKey, sequenceBytes(sequence));
    }

    /** Inverted, so that a greater sequence gives a smaller key: newest first. */
    private static byte[] sequenceBytes(long sequence) {
        return ByteBuffer.allocate(SEQUENCE_BYTES).putLong(~sequence).array();
    }

    static long versionSequence(byte[] raw) {
        return ~ByteBuffer.wrap(raw, raw.length - SEQUENCE_BYTES, SEQUENCE_BYTES).getLong();
    }

    static byte[] bucketConfig(String bucket, String kind) {
        if (kind.isEmpty()) {
            throw new IllegalArgumentException("configuration kind must not be empty");
        }
        return concat(bucketScope(bucket), utf8(kind));
    }

    /** The prefix of every service configuration key of a kind: {@code kind 0}. */
    static byte[] serviceConfigsOf(String kind) {
        return concat(utf8(ServiceConfigNames.requireKind(kind)), new byte[] {SEPARATOR});
    }

    static byte[] serviceConfig(String kind, String name) {
        return concat(serviceConfigsOf(kind), utf8(ServiceConfigNames.requireName(name)));
    }

    static byte[] encodeLong(long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }

    static long decodeLong(byte[] raw) {
        if (raw.length != Long.BYTES) {
            throw new IllegalArgumentException("not an 8-byte number: " + raw.length + " bytes");
        }
        return ByteBuffer.wrap(raw).getLong();
    }

    static byte[] upload(String bucket, String key, String uploadId) {
        return concat(uploadsOfKey(bucket, key), utf8(requireNoSeparator(uploadId, "upload id")));
    }

    /** The prefix of the upload keys of one object key: {@code bucket 0 key 0}. */
    static byte[] uploadsOfKey(String bucket, String key) {
        return concat(bucketScope(bucket), utf8(requireNoSeparator(key, "upload key")), new byte[] {SEPARATOR});
    }

    /** The upload id of an uploads-family key: after the last separator (ids hold none). */
    static String uploadId(byte[] raw) {
        for (int i = raw.length - 1; i >= 0; i--) {
            if (raw[i] == SEPARATOR) {
                return string(raw, i + 1, raw.length);
            }
        }
        throw new IllegalArgumentException("not an upload key");
    }

    /** The prefix of every part key of an upload. */
    static byte[] partsOf(String uploadId) {
        return concat(utf8(requireNoSeparator(uploadId, "upload id")), new byte[] {SEPARATOR});
    }

    static byte[] part(String uploadId, int partNumber) {
        return concat(partsOf(uploadId), ByteKeys.int32(partNumber));
    }

    static byte[] garbage(BlockId id) {
        return blockIdBytes(id);
    }

    static BlockId garbageId(byte[] raw) {
        return blockId(raw, 0);
    }

    static byte[] accessKey(String accessKeyId) {
        return utf8(accessKeyId);
    }

    static byte[] blockIdBytes(BlockId id) {
        return HEX.parseHex(id.value());
    }

    static BlockId blockId(byte[] bytes, int offset) {
        return new BlockId(HEX.formatHex(bytes, offset, offset + BLOCK_ID_BYTES));
    }

    static int blockIdLength() {
        return BLOCK_ID_BYTES;
    }

    private static int indexOf(byte[] bytes, byte value) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == value) {
                return i;
            }
        }
        throw new IllegalArgumentException("no separator in key");
    }

    private static String requireNoSeparator(String name, String what) {
        if (name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException(what + " must not contain U+0000");
        }
        return name;
    }
}
