package dev.hangar.metadata.rocksdb;

import dev.hangar.blockstore.BlockRef;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.Checksum;
import dev.hangar.metadata.MetadataStorageException;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The value format of every record. The first byte is the format version, so that a later format
 * can be read next to this one and records migrated lazily. Fields the record key already holds
 * (bucket, object key, upload id, part number, access key id) are not repeated in the value: the
 * decoder takes them from the key.
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
 * </ul>
 */
final class RecordCodec {
    static final int FORMAT_VERSION = 1;

    private static final int INLINE = 0;
    private static final int BLOCKS = 1;
    private static final int DELETE_MARKER = 2;

    private RecordCodec() {}

    static byte[] encodeBucket(BucketRecord bucket) {
        RecordWriter writer = start();
        writer.writeInstant(bucket.created());
        writer.writeString(bucket.region());
        return writer.toByteArray();
    }

    static BucketRecord decodeBucket(String name, byte[] value) {
        return decode(value, reader -> new BucketRecord(name, reader.readInstant(), reader.readString()));
    }

    static byte[] encodeObject(ObjectVersion version) {
        RecordWriter writer = start();
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
        return writer.toByteArray();
    }

    static ObjectVersion decodeObject(String bucket, String key, byte[] value) {
        return decode(value, reader -> {
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
            return new ObjectVersion(
                    bucket, key, versionId, lastModified, size, etag, content, headers, userMetadata, checksum,
                    partSizes);
        });
    }

    static byte[] encodeUpload(MultipartUpload upload) {
        RecordWriter writer = start();
        writer.writeInstant(upload.initiated());
        writer.writeMap(upload.headers());
        writer.writeMap(upload.userMetadata());
        writer.writeNullableString(upload.checksumAlgorithm());
        return writer.toByteArray();
    }

    static MultipartUpload decodeUpload(String bucket, String key, String uploadId, byte[] value) {
        return decode(value, reader -> new MultipartUpload(
                bucket, key, uploadId, reader.readInstant(), reader.readMap(), reader.readMap(),
                reader.readNullableString()));
    }

    static byte[] encodePart(Part part) {
        RecordWriter writer = start();
        writer.writeInstant(part.lastModified());
        writer.writeVarLong(part.size());
        writer.writeString(part.etag());
        writeBlocks(writer, part.blocks());
        writeChecksum(writer, part.checksum());
        return writer.toByteArray();
    }

    static Part decodePart(String uploadId, int partNumber, byte[] value) {
        return decode(value, reader -> new Part(
                uploadId, partNumber, reader.readInstant(), reader.readVarLong(), reader.readString(),
                readBlocks(reader), readChecksum(reader)));
    }

    static byte[] encodeAccessKey(AccessKey key) {
        RecordWriter writer = start();
        writer.writeString(key.secretKey());
        writer.writeInstant(key.created());
        return writer.toByteArray();
    }

    static AccessKey decodeAccessKey(String accessKeyId, byte[] value) {
        return decode(value, reader -> new AccessKey(accessKeyId, reader.readString(), reader.readInstant()));
    }

    private static RecordWriter start() {
        RecordWriter writer = new RecordWriter();
        writer.writeByte(FORMAT_VERSION);
        return writer;
    }

    /** Checks the version, reads the fields, and checks that nothing is left over. */
    private static <T> T decode(byte[] value, Function<RecordReader, T> fields) {
        RecordReader reader = new RecordReader(value);
        int version = reader.readByte();
        if (version != FORMAT_VERSION) {
            throw new MetadataStorageException("unknown metadata format version " + version);
        }
        T record;
        try {
            record = fields.apply(reader);
        } catch (IllegalArgumentException e) {
            // A record constructor refused the fields read: the bytes are not what was written.
            throw new MetadataStorageException("corrupt metadata record: " + e.getMessage(), e);
        }
        reader.finish();
        return record;
    }

    private static void writeContent(RecordWriter writer, ObjectContent content) {
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

    private static void writeBlocks(RecordWriter writer, List<BlockRef> blocks) {
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

    private static void writeChecksum(RecordWriter writer, @Nullable Checksum checksum) {
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
