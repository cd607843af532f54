package dev.hangar.blockstore.packed;

import dev.hangar.blockstore.BlockId;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.zip.CRC32C;
import org.jspecify.annotations.Nullable;

/**
 * The header in front of each chunk in a segment file, which makes a segment self-describing: a
 * recovery or a compaction can walk it without the index, and a read checks it names the chunk it
 * expected.
 *
 * <p>Layout, big-endian, {@value #SIZE} bytes: magic {@code HGCK} (4), block id (16), data length
 * (4), CRC32C of the data (4), write time in epoch milliseconds (8), CRC32C of the 36 bytes before
 * it (4). A torn or overwritten header fails its own CRC, which is how a recovery finds where the
 * valid records of a segment end.
 *
 * @param writtenAtMillis when the chunk was first written; a compaction's copy keeps it, so the
 *     age a scrub judges orphans by does not restart
 */
record RecordHeader(BlockId id, int length, int crc32c, long writtenAtMillis) {
    static final int SIZE = 40;
    private static final int MAGIC = 0x4847434b;
    private static final HexFormat HEX = HexFormat.of();

    /** Bytes this record takes in its segment, header included. */
    long recordSize() {
        return SIZE + (long) length;
    }

    ByteBuffer encode() {
        ByteBuffer buffer = ByteBuffer.allocate(SIZE);
        buffer.putInt(MAGIC).put(idBytes(id)).putInt(length).putInt(crc32c).putLong(writtenAtMillis);
        CRC32C checksum = new CRC32C();
        checksum.update(buffer.array(), 0, SIZE - 4);
        buffer.putInt((int) checksum.getValue());
        return buffer.flip();
    }

    /** The header in {@code buffer}'s next {@value #SIZE} bytes, or null if they are not a valid one. */
    static @Nullable RecordHeader decode(ByteBuffer buffer) {
        if (buffer.remaining() < SIZE) {
            return null;
        }
        int start = buffer.position();
        CRC32C checksum = new CRC32C();
        checksum.update(buffer.slice(start, SIZE - 4));
        if (buffer.getInt(start) != MAGIC || buffer.getInt(start + SIZE - 4) != (int) checksum.getValue()) {
            return null;
        }
        byte[] id = new byte[16];
        buffer.get(start + 4, id);
        int length = buffer.getInt(start + 20);
        if (length < 0) {
            return null;
        }
        RecordHeader header = new RecordHeader(
                new BlockId(HEX.formatHex(id)), length, buffer.getInt(start + 24), buffer.getLong(start + 28));
        buffer.position(start + SIZE);
        return header;
    }

    static byte[] idBytes(BlockId id) {
        return HEX.parseHex(id.value());
    }

    static BlockId idOf(byte[] bytes) {
        return new BlockId(HEX.formatHex(bytes));
    }
}
