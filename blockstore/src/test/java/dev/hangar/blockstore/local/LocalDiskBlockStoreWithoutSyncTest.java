package dev.hangar.blockstore.local;

import dev.hangar.blockstore.AbstractBlockStoreContractTest;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.BlockStores;
import dev.hangar.blockstore.SyncPolicy;
import java.io.IOException;
import java.nio.file.Path;

/** The contract again without fsync, which takes other paths through a write. */
class LocalDiskBlockStoreWithoutSyncTest extends AbstractBlockStoreContractTest {

    @Override
    protected BlockStore createStore(Path tempDir) throws IOException {
        return BlockStores.localDisk(tempDir, SyncPolicy.NONE);
    }
}
