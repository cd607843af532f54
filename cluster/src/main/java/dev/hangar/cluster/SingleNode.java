package dev.hangar.cluster;

import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.BlockStores;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.MetadataStores;
import dev.hangar.metadata.rocksdb.RocksDbConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;

/**
 * A cluster of one: the local RocksDB metadata, and the block store its configuration names (local
 * disk, or a bucket of a remote S3 service).
 */
final class SingleNode implements ClusterNode {
    private final MetadataStore metadata;
    private final BlockStore blocks;
    private final BlockReclaimer reclaimer;

    SingleNode(NodeConfig config) {
        try {
            Files.createDirectories(config.dataDirectory());
            this.blocks = openBlocks(config);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the block store in " + config.dataDirectory(), e);
        }
        this.metadata = MetadataStores.rocksDb(
                new RocksDbConfig(config.dataDirectory().resolve("metadata"), config.sync(), config.blockCacheBytes()));
        this.reclaimer = new BlockReclaimer(metadata, blocks, config.reclaimInterval());
    }

    private static BlockStore openBlocks(NodeConfig config) throws IOException {
        return switch (config.blockBackend()) {
            case NodeConfig.BlockBackend.LocalDisk local ->
                    BlockStores.localDisk(config.dataDirectory().resolve("blocks"), config.sync());
            case NodeConfig.BlockBackend.RemoteS3 remote -> BlockStores.s3(remote.config());
        };
    }

    @Override
    public MetadataStore metadata() {
        return metadata;
    }

    @Override
    public BlockStore blocks() {
        return blocks;
    }

    @Override
    public void reclaimSoon() {
        reclaimer.reclaimSoon();
    }

    @Override
    public void close() {
        reclaimer.close();
        metadata.close();
        try {
            blocks.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
