package dev.hangar.cluster;

import dev.hangar.blockstore.BlockId;

/**
 * The set of referenced block ids as a Bloom filter, so that a scrub can tell orphans from
 * referenced blocks in a few megabytes however many blocks there are: a million ids would take
 * about 100 MB in a {@code HashSet}, and 2–4 MB here.
 *
 * <p>Block ids are 128 random bits, so no hashing is needed: each of the {@link #HASHES} bit
 * positions is a 32-bit slice of the id itself, masked to the filter's size (a power of two).
 * A false positive only keeps an orphan until the next scrub; there are no false negatives, which
 * is what matters: a referenced block is never taken for an orphan.
 */
final class BlockBloomFilter {
    static final int HASHES = 3;
    /** 16 bits per id gives about 0.5 % false positives with 3 slices; rounding up to a power of two gives more room. */
    private static final int BITS_PER_ID = 16;
    private static final int MIN_BITS = 1 << 12;
    /** 128 MiB of bits: enough for about 67 million ids at the planned density, more at a worse one. */
    private static final long MAX_BITS = 1L << 30;

    private final long[] words;
    private final long mask;

    private BlockBloomFilter(long bits) {
        this.words = new long[(int) (bits >>> 6)];
        this.mask = bits - 1;
    }

    /** A filter with room for about {@code expectedIds} ids. */
    static BlockBloomFilter forExpected(long expectedIds) {
        long wanted = Math.max(MIN_BITS, Math.min(MAX_BITS, Math.max(0, expectedIds) * BITS_PER_ID));
        long bits = Long.highestOneBit(wanted);
        if (bits < wanted) {
            bits <<= 1;
        }
        return new BlockBloomFilter(Math.min(bits, MAX_BITS));
    }

    void add(BlockId id) {
        String hex = id.value();
        long high = Long.parseUnsignedLong(hex, 0, 16, 16);
        long low = Long.parseUnsignedLong(hex, 16, 32, 16);
        set(high >>> 32);
        set(high & 0xffffffffL);
        set(low >>> 32);
    }

    boolean mightContain(BlockId id) {
        String hex = id.value();
        long high = Long.parseUnsignedLong(hex, 0, 16, 16);
        long low = Long.parseUnsignedLong(hex, 16, 32, 16);
        return isSet(high >>> 32) && isSet(high & 0xffffffffL) && isSet(low >>> 32);
    }

    long bits() {
        return mask + 1;
    }

    private void set(long slice) {
        long bit = slice & mask;
        words[(int) (bit >>> 6)] |= 1L << bit;
    }

    private boolean isSet(long slice) {
        long bit = slice & mask;
        return (words[(int) (bit >>> 6)] & (1L << bit)) != 0;
    }
}
