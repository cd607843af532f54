package dev.hangar.cluster;

import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.BlockStores;
import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.MetadataStores;
import dev.hangar.metadata.rocksdb.RocksDbConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A cluster of one: the local RocksDB metadata, and the block store its configuration names (local
 * disk, or a bucket of a remote S3 service).
 *
 * <p>With {@link SyncPolicy#batch} the stores start no sync threads of their own: one {@link
 * NodeSync} round per interval forces the blocks, then syncs the metadata, so the metadata that
 * reaches stable storage does not point to blocks that have not.
 */
final class SingleNode implements ClusterNode {
    private final MetadataStore metadata;
    private final StoreReplication replication;
    private final BlockStore blocks;
    private final BlockReclaimer reclaimer;
    private final StorageMaintenance maintenance;
    /** With BATCH, the node's sync round; otherwise null. */
    private final @Nullable NodeSync sync;

    SingleNode(NodeConfig config) {
        this(config, MaintenanceConfig.DEFAULTS);
    }

    SingleNode(NodeConfig config, MaintenanceConfig maintenance) {
        this(config, maintenance, UnaryOperator.identity(), UnaryOperator.identity());
    }

    /** Opens the node with its stores wrapped as given, before anything uses them: for tests. */
    SingleNode(NodeConfig config, UnaryOperator<BlockStore> wrapBlocks, UnaryOperator<MetadataStore> wrapMetadata) {
        this(config, MaintenanceConfig.DEFAULTS, wrapBlocks, wrapMetadata);
    }

    SingleNode(NodeConfig config, MaintenanceConfig maintenance, UnaryOperator<BlockStore> wrapBlocks,
            UnaryOperator<MetadataStore> wrapMetadata) {
        boolean coordinated = config.sync().mode() == SyncPolicy.Mode.BATCH;
        try {
            Files.createDirectories(config.dataDirectory());
            this.blocks = wrapBlocks.apply(openBlocks(config, !coordinated));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the block store in " + config.dataDirectory(), e);
        }
        try {
            this.metadata = wrapMetadata.apply(MetadataStores.rocksDb(new RocksDbConfig(
                    config.dataDirectory().resolve("metadata"),
                    config.sync(),
                    config.blockCacheBytes(),
                    !coordinated)));
        } catch (RuntimeException e) {
            closeQuietly(blocks, e);
            throw e;
        }
        // Started last: nothing after it can fail.
        this.sync = coordinated ? new NodeSync(blocks, metadata, config.sync().interval()) : null;
        this.reclaimer = new BlockReclaimer(metadata, blocks, config.reclaimInterval());
        this.maintenance = new StorageMaintenance(metadata, blocks, reclaimer.leases(), maintenance, Clock.systemUTC());
        this.replication = new StoreReplication(ReplicationMode.SINGLE_NODE, metadata);
    }

    /** The node's own block store, as its configuration names it; a cluster node opens its copies the same way. */
    static BlockStore openBlocks(NodeConfig config, boolean syncInBackground) throws IOException {
        return switch (config.blockBackend()) {
            case NodeConfig.BlockBackend.LocalDisk local ->
                    BlockStores.packed(
                            config.dataDirectory().resolve("blocks"), config.sync(), syncInBackground, local.packing());
            case NodeConfig.BlockBackend.RemoteS3 remote -> BlockStores.s3(remote.config());
            case NodeConfig.BlockBackend.InMemory memory -> BlockStores.inMemory();
        };
    }

    @Override
    public Replication replication() {
        return replication;
    }

    @Override
    public BlockStore blocks() {
        return blocks;
    }

    @Override
    public StorageMaintenance maintenance() {
        return maintenance;
    }

    @Override
    public ReaderLeases leases() {
        return reclaimer.leases();
    }

    @Override
    public void reclaimSoon() {
        reclaimer.reclaimSoon();
    }

    /** Runs a reclamation pass now, on the caller's thread; returns how many blocks it freed. For tests. */
    int reclaimNow() throws InterruptedException {
        return reclaimer.reclaimNow();
    }

    /** Waits for the reclamation passes already scheduled (the one at start included) to end. For tests. */
    void awaitReclamationPasses() throws InterruptedException {
        reclaimer.awaitScheduledPasses();
    }

    /** Runs the batch-mode sync round now, blocks then metadata; does nothing in other modes. For tests. */
    void syncNow() throws IOException {
        if (sync != null) {
            sync.runRound();
        }
    }

    /**
     * Stops the maintenance, the reclaimer and the sync round (running it a last time), then closes
     * the blocks before the metadata: each close forces what is left, blocks first.
     */
    @Override
    public void close() {
        maintenance.close();
        reclaimer.close();
        try {
            try {
                if (sync != null) {
                    sync.close();
                }
            } finally {
                try {
                    blocks.close();
                } finally {
                    metadata.close();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void closeQuietly(BlockStore store, Throwable failure) {
        try {
            store.close();
        } catch (IOException | RuntimeException closeFailure) {
            failure.addSuppressed(closeFailure);
        }
    }
}
