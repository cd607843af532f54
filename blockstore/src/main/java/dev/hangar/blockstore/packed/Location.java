package dev.hangar.blockstore.packed;

import java.nio.ByteBuffer;

/**
 * Where a packed chunk is: the segment, the offset of its record (header first), and what the
 * header says, so that a read or a listing needs no look at the file to know the chunk's size.
 */
record Location(long segment, long offset, int length, int crc32c, long writtenAtMillis) {
    static final int ENCODED_SIZE = 32;

    long recordSize() {
        return RecordHeader.SIZE + (long) length;
    }

    byte[] encode() {
        return ByteBuffer.allocate(ENCODED_SIZE)
                .putLong(segment)
                .putLong(offset)
                .putInt(length)
                .putInt(crc32c)
                .putLong(writtenAtMillis)
                .array();
    }

    static Location decode(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        return new Location(buffer.getLong(), buffer.getLong(), buffer.getInt(), buffer.getInt(), buffer.getLong());
    }
}
