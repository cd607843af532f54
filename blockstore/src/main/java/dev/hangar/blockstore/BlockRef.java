package dev.hangar.blockstore;

/**
 * What a written block is: its id, its length in bytes and the CRC32C of its content, which a
 * reader or a scrub can verify.
 */
public record BlockRef(BlockId id, long size, int crc32c) {
    public BlockRef {
        if (id == null) {
            throw new IllegalArgumentException("block id is required");
        }
        if (size < 0) {
            throw new IllegalArgumentException("block size must not be negative: " + size);
        }
    }
}
