package dev.hangar.metadata.rocksdb;

import dev.hangar.metadata.codec.FieldWriter;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketPermission;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.Checksum;
import dev.hangar.metadata.MetadataStorageException;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectLock;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.RetentionMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The value format of every record. The first byte is the format version, so that a later format
 * can be read next to this one and records migrated lazily. Fields the record key already holds
 * (bucket, object key, upload id, part number, access key id, configuration kind) are not repeated
 * in the value: the decoder takes them from the key.
 *
 * <p>Each record kind moves to a new format only when its own encoding changes, and its decoder
 * keeps reading every older one. Objects and access keys are written in format 2 (access keys
 * with a key-wide permission in format 3); buckets, uploads, parts and bucket configurations in
 * format 1. A format this code does not know (a
 * newer one, written by a later release) is refused rather than guessed at.
 *
 * <p>Format 1, field by field (varint: unsigned LEB128; string: varint length + UTF-8; instant:
 * zigzag varint seconds + varint nanoseconds; map: varint count + sorted name/value strings;
 * nullable: a presence byte 0/1 then the value; block: 16 id bytes, varint size, 4-byte CRC32C):
 *
 * <ul>
 *   <li>bucket: created, region
 *   <li>object: versionId, lastModified, size, etag, content, headers, userMetadata, nullable
 *       checksum (algorithm, value), partSizes (varint count + varints)
 *   <li>content: tag 0 inline (varint length + bytes) | 1 blocks (varint count + blocks) | 2
 *       delete marker
 *   <li>upload: initiated, headers, userMetadata, nullable checksumAlgorithm
 *   <li>part: lastModified, size, etag, blocks (count + blocks), nullable checksum
 *   <li>access key: secretKey, created
 *   <li>bucket configuration: the document's bytes, up to the end of the value
 * </ul>
 *
 * <p>Format 2 appends fields to format 1; a format 1 record reads as if they had their defaults.
 *
 * <ul>
 *   <li>object: the format 1 fields, then tags (map), nullable lock, nullable acl, nullable
 *       ownerKeyId. Lock: retention mode byte (0 none, 1 governance, 2 compliance), then
 *       retainUntil if there is a mode, then legalHold (boolean). Read from format 1: no tags, no
 *       lock, no ACL, no owner
 *   <li>access key: the format 1 fields, then root (boolean), bucket permissions (varint count,
 *       then by bucket name: name, one byte of flags: 1 read, 2 write, 4 owner). Read from format
 *       1: a root key, as every key stored before permissions existed was
 * </ul>
 *
 * <p>Format 3 appends to format 2, for access keys only, one byte of key-wide permission flags: 1 may
 * create buckets. Only keys with a flag set are written in format 3, so that a release that knows format 2
 * at most still reads every other key; read from format 2, a key has no key-wide permission.
 */
final class RecordCodec {
    /** The first format: still the current one of buckets, uploads, parts and bucket configurations. */
    static final int FORMAT_1 = 1;
    /** Objects with tags, lock, ACL and owner; access keys with root flag and bucket permissions. */
    static final int FORMAT_2 = 2;
    /** Access keys with key-wide permissions (creating buckets). */
    static final int FORMAT_3 = 3;

    private static final int NO_RETENTION = 0;
    private static final int GOVERNANCE = 1;
    private static final int COMPLIANCE = 2;
    private static final int READ = 1;
    private static final int WRITE = 2;
    private static final int OWNER = 4;
    private static final int CREATE_BUCKETS = 1;

    private static final int INLINE = 0;
    private static final int BLOCKS = 1;
    private static final int DELETE_MARKER = 2;

    private RecordCodec() {}

    static byte[] encodeBucket(BucketRecord bucket) {
        FieldWriter writer = start(FORMAT_1);
        writer.writeInstant(bucket.created());
        writer.writeString(bucket.region());
        return writer.toByteArray();
    }

    static BucketRecord decodeBucket(String name, byte[] value) {
        return decode(value, FORMAT_1, (reader, format) -> new BucketRecord(name, reader.readInstant(), reader.readString()));
    }

    static byte[] encodeObject(ObjectVersion version) {
        FieldWriter writer = start(FORMAT_2);
        writer.writeString(version.versionId());
        writer.writeInstant(version.lastModified());
        writer.writeVarLong(version.size());
        writer.writeString(version.etag());
        writeContent(writer, version.content());
        writer.writeMap(version.headers());
        writer.writeMap(version.userMetadata());
        writeChecksum(writer, version.checksum());
        writer.writeVarLong(version.partSizes().size());
        for (long partSize : version.partSizes()) {
            writer.writeVarLong(partSize);
        }
        writer.writeMap(version.tags());
        writeLock(writer, version.lock());
        writer.writeNullableString(version.acl());
        writer.writeNullableString(version.ownerKeyId());
        return writer.toByteArray();
    }

    static ObjectVersion decodeObject(String bucket, String key, byte[] value) {
        return decode(value, FORMAT_3, (reader, format) -> {
            String versionId = reader.readString();
            var lastModified = reader.readInstant();
            long size = reader.readVarLong();
            String etag = reader.readString();
            ObjectContent content = readContent(reader);
            var headers = reader.readMap();
            var userMetadata = reader.readMap();
            Checksum checksum = readChecksum(reader);
            int partCount = reader.readCount();
            List<Long> partSizes = new ArrayList<>(partCount);
            for (int i = 0; i < partCount; i++) {
                partSizes.add(reader.readVarLong());
            }
            if (format == FORMAT_1) {
                return new ObjectVersion(
                        bucket, key, versionId, lastModified, size, etag, content, headers, userMetadata, checksum,
                        partSizes);
            }
            var tags = reader.readMap();
            ObjectLock lock = readLock(reader);
            String acl = reader.readNullableString();
            String ownerKeyId = reader.readNullableString();
            return new ObjectVersion(
                    bucket, key, versionId, lastModified, size, etag, content, headers, userMetadata, checksum,
                    partSizes, tags, lock, acl, ownerKeyId);
        });
    }

    /**
     * The version id of an encoded object, read without decoding the rest: it is the first field
     * in every format, so scanning the versions of a key for an id stays cheap.
     */
    static String peekVersionId(byte[] value) {
        RecordReader reader = new RecordReader(value);
        requireKnownFormat(reader.readByte(), FORMAT_2);
        return reader.readString();
    }

    /**
     * What the counters and the block walk need of an encoded object.
     *
     * @param blocks the referenced blocks; empty for inline content and delete markers
     */
    record ContentSummary(long size, boolean deleteMarker, List<BlockRef> blocks) {}

    /**
     * The size, kind and blocks of an encoded object, read up to the end of its content and no
     * further (the fields before it are the same in every format), without copying inline bytes:
     * scans of every version stay cheap.
     */
    static ContentSummary peekContent(byte[] value) {
        RecordReader reader = new RecordReader(value);
        requireKnownFormat(reader.readByte(), FORMAT_2);
        reader.skip(reader.readCount()); // versionId
        reader.readInstant(); // lastModified
        long size = reader.readVarLong();
        reader.skip(reader.readCount()); // etag
        int tag = reader.readByte();
        return switch (tag) {
            case INLINE -> new ContentSummary(size, false, List.of());
            case BLOCKS -> new ContentSummary(size, false, readBlocks(reader));
            case DELETE_MARKER -> new ContentSummary(size, true, List.of());
            default -> throw reader.corrupt("content tag " + tag);
        };
    }

    /** The blocks of an encoded part, read without the fields after them. */
    static List<BlockRef> peekPartBlocks(byte[] value) {
        RecordReader reader = new RecordReader(value);
        requireKnownFormat(reader.readByte(), FORMAT_1);
        reader.readInstant(); // lastModified
        reader.readVarLong(); // size
        reader.skip(reader.readCount()); // etag
        return readBlocks(reader);
    }

    static byte[] encodeUpload(MultipartUpload upload) {
        FieldWriter writer = start(FORMAT_1);
        writer.writeInstant(upload.initiated());
        writer.writeMap(upload.headers());
        writer.writeMap(upload.userMetadata());
        writer.writeNullableString(upload.checksumAlgorithm());
        return writer.toByteArray();
    }

    static MultipartUpload decodeUpload(String bucket, String key, String uploadId, byte[] value) {
        return decode(value, FORMAT_1, (reader, format) -> new MultipartUpload(
                bucket, key, uploadId, reader.readInstant(), reader.readMap(), reader.readMap(),
                reader.readNullableString()));
    }

    static byte[] encodePart(Part part) {
        FieldWriter writer = start(FORMAT_1);
        writer.writeInstant(part.lastModified());
        writer.writeVarLong(part.size());
        writer.writeString(part.etag());
        writeBlocks(writer, part.blocks());
        writeChecksum(writer, part.checksum());
        return writer.toByteArray();
    }

    static Part decodePart(String uploadId, int partNumber, byte[] value) {
        return decode(value, FORMAT_1, (reader, format) -> new Part(
                uploadId, partNumber, reader.readInstant(), reader.readVarLong(), reader.readString(),
                readBlocks(reader), readChecksum(reader)));
    }

    static byte[] encodeAccessKey(AccessKey key) {
        // Format 3 only for a key that has a key-wide permission: every other key stays readable by a
        // release that knows format 2 at most (a node not yet upgraded, or a downgrade).
        boolean keyWide = key.createBuckets();
        FieldWriter writer = start(keyWide ? FORMAT_3 : FORMAT_2);
        writer.writeString(key.secretKey());
        writer.writeInstant(key.created());
        writer.writeBoolean(key.root());
        writer.writeVarLong(key.buckets().size());
        for (Map.Entry<String, BucketPermission> entry : new TreeMap<>(key.buckets()).entrySet()) {
            BucketPermission permission = entry.getValue();
            writer.writeString(entry.getKey());
            writer.writeByte((permission.read() ? READ : 0) | (permission.write() ? WRITE : 0)
                    | (permission.owner() ? OWNER : 0));
        }
        if (keyWide) {
            writer.writeByte(key.createBuckets() ? CREATE_BUCKETS : 0);
        }
        return writer.toByteArray();
    }

    static AccessKey decodeAccessKey(String accessKeyId, byte[] value) {
        return decode(value, FORMAT_3, (reader, format) -> {
            String secretKey = reader.readString();
            Instant created = reader.readInstant();
            if (format == FORMAT_1) {
                return new AccessKey(accessKeyId, secretKey, created);
            }
            boolean root = reader.readBoolean();
            int count = reader.readCount();
            Map<String, BucketPermission> buckets = new HashMap<>();
            for (int i = 0; i < count; i++) {
                String bucket = reader.readString();
                int flags = reader.readByte();
                if ((flags & ~(READ | WRITE | OWNER)) != 0) {
                    throw reader.corrupt("permission flags " + flags);
                }
                buckets.put(bucket, new BucketPermission((flags & READ) != 0, (flags & WRITE) != 0, (flags & OWNER) != 0));
            }
            if (format == FORMAT_2) {
                return new AccessKey(accessKeyId, secretKey, created, root, buckets, false);
            }
            int keyFlags = reader.readByte();
            if ((keyFlags & ~CREATE_BUCKETS) != 0) {
                throw reader.corrupt("key permission flags " + keyFlags);
            }
            return new AccessKey(accessKeyId, secretKey, created, root, buckets, (keyFlags & CREATE_BUCKETS) != 0);
        });
    }

    static byte[] encodeBucketConfig(byte[] document) {
        FieldWriter writer = start(FORMAT_1);
        writer.writeRaw(document);
        return writer.toByteArray();
    }

    static byte[] decodeBucketConfig(byte[] value) {
        return decode(value, FORMAT_1, (reader, format) -> reader.readRaw(value.length - 1));
    }

    private static FieldWriter start(int format) {
        FieldWriter writer = new FieldWriter();
        writer.writeByte(format);
        return writer;
    }

    /** Reads the fields of a record in one of the formats its kind has had. */
    @FunctionalInterface
    private interface Fields<T> {
        T read(RecordReader reader, int format);
    }

    /**
     * Checks the format (1 up to {@code newestFormat} of the record's kind), reads the fields, and
     * checks that nothing is left over.
     */
    private static <T> T decode(byte[] value, int newestFormat, Fields<T> fields) {
        RecordReader reader = new RecordReader(value);
        int format = requireKnownFormat(reader.readByte(), newestFormat);
        T record;
        try {
            record = fields.read(reader, format);
        } catch (IllegalArgumentException e) {
            // A record constructor refused the fields read: the bytes are not what was written.
            throw new MetadataStorageException("corrupt metadata record: " + e.getMessage(), e);
        }
        reader.finish();
        return record;
    }

    private static int requireKnownFormat(int format, int newestFormat) {
        if (format < FORMAT_1 || format > newestFormat) {
            throw new MetadataStorageException("unknown metadata format version " + format);
        }
        return format;
    }

    private static void writeLock(FieldWriter writer, @Nullable ObjectLock lock) {
        writer.writeBoolean(lock != null);
        if (lock == null) {
            return;
        }
        RetentionMode mode = lock.retentionMode();
        Instant retainUntil = lock.retainUntil();
        if (mode == null || retainUntil == null) {
            writer.writeByte(NO_RETENTION);
        } else {
            writer.writeByte(switch (mode) {
                case GOVERNANCE -> GOVERNANCE;
                case COMPLIANCE -> COMPLIANCE;
            });
            writer.writeInstant(retainUntil);
        }
        writer.writeBoolean(lock.legalHold());
    }

    private static @Nullable ObjectLock readLock(RecordReader reader) {
        if (!reader.readBoolean()) {
            return null;
        }
        int tag = reader.readByte();
        RetentionMode mode = switch (tag) {
            case NO_RETENTION -> null;
            case GOVERNANCE -> RetentionMode.GOVERNANCE;
            case COMPLIANCE -> RetentionMode.COMPLIANCE;
            default -> throw reader.corrupt("retention mode " + tag);
        };
        Instant retainUntil = mode == null ? null : reader.readInstant();
        return new ObjectLock(mode, retainUntil, reader.readBoolean());
    }

    private static void writeContent(FieldWriter writer, ObjectContent content) {
        switch (content) {
            case ObjectContent.Inline inline -> {
                writer.writeByte(INLINE);
                writer.writeBytes(inline.data());
            }
            case ObjectContent.Blocks blocks -> {
                writer.writeByte(BLOCKS);
                writeBlocks(writer, blocks.blocks());
            }
            case ObjectContent.DeleteMarker marker -> writer.writeByte(DELETE_MARKER);
        }
    }

    private static ObjectContent readContent(RecordReader reader) {
        int tag = reader.readByte();
        return switch (tag) {
            case INLINE -> new ObjectContent.Inline(reader.readBytes());
            case BLOCKS -> new ObjectContent.Blocks(readBlocks(reader));
            case DELETE_MARKER -> new ObjectContent.DeleteMarker();
            default -> throw reader.corrupt("content tag " + tag);
        };
    }

    private static void writeBlocks(FieldWriter writer, List<BlockRef> blocks) {
        writer.writeVarLong(blocks.size());
        for (BlockRef block : blocks) {
            writer.writeRaw(Keys.blockIdBytes(block.id()));
            writer.writeVarLong(block.size());
            writer.writeInt(block.crc32c());
        }
    }

    private static List<BlockRef> readBlocks(RecordReader reader) {
        int count = reader.readCount();
        List<BlockRef> blocks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int idStart = reader.skip(Keys.blockIdLength());
            blocks.add(new BlockRef(Keys.blockId(reader.bytes(), idStart), reader.readVarLong(), reader.readInt()));
        }
        return blocks;
    }

    private static void writeChecksum(FieldWriter writer, @Nullable Checksum checksum) {
        writer.writeBoolean(checksum != null);
        if (checksum != null) {
            writer.writeString(checksum.algorithm());
            writer.writeString(checksum.value());
        }
    }

    private static @Nullable Checksum readChecksum(RecordReader reader) {
        return reader.readBoolean() ? new Checksum(reader.readString(), reader.readString()) : null;
    }
}
