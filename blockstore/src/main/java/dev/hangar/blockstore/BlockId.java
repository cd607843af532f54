package dev.hangar.blockstore;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Identity of one stored block: 128 random bits in lower-case hex.
 *
 * <p>Ids are random rather than content hashes so that deleting an object can free its blocks at
 * once: no other object can share a block, so no reference count or grace delay is needed.
 */
public record BlockId(String value) implements Comparable<BlockId> {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();

    public BlockId {
        if (value == null || value.length() != 32 || !value.chars().allMatch(BlockId::isLowerHex)) {
            throw new IllegalArgumentException("block id must be 32 lower-case hex digits: " + value);
        }
    }

    public static BlockId random() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return new BlockId(HEX.formatHex(bytes));
    }

    private static boolean isLowerHex(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    }

    @Override
    public int compareTo(BlockId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
