package dev.hangar.blockstore;

import dev.hangar.blockstore.local.LocalDiskBlockStore;
import dev.hangar.blockstore.memory.InMemoryBlockStore;
import java.io.IOException;
import java.nio.file.Path;

/** Builds the block store backends: the one place callers need to know about. */
public final class BlockStores {

    private BlockStores() {}

    /**
     * A store that keeps each block as a file under {@code root}, which is created if missing.
     * Temporary files that a crash left behind are removed before this returns.
     *
     * @throws IOException if the folder cannot be used, or another store has it open
     */
    public static BlockStore localDisk(Path root, SyncPolicy sync) throws IOException {
        return LocalDiskBlockStore.open(root, sync);
    }

    /** A store that keeps blocks in the heap: for tests, nothing survives the process. */
    public static BlockStore inMemory() {
        return new InMemoryBlockStore();
    }
}
