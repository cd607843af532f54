package dev.hangar.blockstore;

/** When written bytes are forced to stable storage. */
public enum SyncPolicy {
    /** Every block is forced to disk before its write returns. */
    ALWAYS,
    /** The operating system decides; a process crash loses nothing, a power loss may. */
    NONE
}
