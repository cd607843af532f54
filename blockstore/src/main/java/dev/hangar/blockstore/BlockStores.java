package dev.hangar.blockstore;

import dev.hangar.blockstore.local.LocalDiskBlockStore;
import dev.hangar.blockstore.memory.InMemoryBlockStore;
import dev.hangar.blockstore.packed.PackedBlockStore;
import dev.hangar.blockstore.packed.PackingOptions;
import dev.hangar.blockstore.s3.S3BlockStore;
import dev.hangar.blockstore.s3.S3BlockStoreConfig;
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

    /**
     * {@link #localDisk(Path, SyncPolicy)}; with {@link SyncPolicy#batch} and {@code
     * syncInBackground} false, the store starts no sync thread and its owner must call {@link
     * BlockStore#sync} at least every interval, as a node does to force blocks before the metadata
     * that points to them. The other policies ignore the flag.
     */
    public static BlockStore localDisk(Path root, SyncPolicy sync, boolean syncInBackground) throws IOException {
        return LocalDiskBlockStore.open(root, sync, syncInBackground);
    }

    /**
     * A store under {@code root} that packs chunks of at most {@code packing.packThreshold()} bytes
     * into segment files (indexed in {@code root/index}, compacted by {@link BlockStore#compact})
     * and keeps bigger ones as a file each, as {@link #localDisk(Path, SyncPolicy, boolean)} does.
     * With {@link SyncPolicy#ALWAYS}, concurrent packed writes share fsyncs (group commit).
     */
    public static BlockStore packed(Path root, SyncPolicy sync, boolean syncInBackground, PackingOptions packing)
            throws IOException {
        LocalDiskBlockStore files = LocalDiskBlockStore.open(root, sync, syncInBackground);
        try {
            return PackedBlockStore.open(root, sync, packing, files);
        } catch (Throwable failure) {
            try {
                files.close();
            } catch (IOException | RuntimeException closeFailure) {
                failure.addSuppressed(closeFailure);
            }
            throw failure;
        }
    }

    /** A store that keeps blocks in the heap: for tests, nothing survives the process. */
    public static BlockStore inMemory() {
        return new InMemoryBlockStore();
    }

    /**
     * A store that keeps each block as an object in a bucket of another S3 service. Each write
     * buffers its block in memory (blocks are bounded by the chunk size); the bucket must exist.
     * Nothing is sent before the first operation, so a wrong endpoint or key shows up there.
     */
    public static BlockStore s3(S3BlockStoreConfig config) {
        return S3BlockStore.open(config);
    }
}
