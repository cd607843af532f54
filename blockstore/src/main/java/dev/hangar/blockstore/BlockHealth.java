package dev.hangar.blockstore;

/** What {@link BlockStore#check} found when it read a block whole. */
public enum BlockHealth {
    /** Present, of the recorded size and CRC32C. */
    INTACT,
    /** Not stored. */
    MISSING,
    /** Stored, but its size or CRC32C differs from the reference. */
    CORRUPT
}
