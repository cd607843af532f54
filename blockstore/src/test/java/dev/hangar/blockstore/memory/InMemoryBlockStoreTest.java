package dev.hangar.blockstore.memory;

import dev.hangar.blockstore.AbstractBlockStoreContractTest;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.BlockStores;
import java.nio.file.Path;

class InMemoryBlockStoreTest extends AbstractBlockStoreContractTest {

    @Override
    protected BlockStore createStore(Path tempDir) {
        return BlockStores.inMemory();
    }
}
