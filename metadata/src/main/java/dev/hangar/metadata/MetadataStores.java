package dev.hangar.metadata;

import dev.hangar.metadata.rocksdb.RocksDbConfig;
import dev.hangar.metadata.rocksdb.RocksDbMetadataStore;

/** Opens metadata stores: the one entry point other modules need. */
public final class MetadataStores {
    private MetadataStores() {}

    /**
     * Opens (creating if missing) the RocksDB store in {@code config.directory()}.
     *
     * @throws MetadataStorageException if RocksDB cannot open the folder, e.g. another process
     *     holds it
     */
    public static MetadataStore rocksDb(RocksDbConfig config) {
        return RocksDbMetadataStore.open(config);
    }
}
