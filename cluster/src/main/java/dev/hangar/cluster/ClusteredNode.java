package dev.hangar.cluster;

import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.membership.ClusterSettings;
import dev.hangar.cluster.membership.MembershipTiming;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.meta.ReplicatedMetadataStore;
import dev.hangar.cluster.meta.SettingsInvalidation;
import dev.hangar.cluster.raft.RaftReplication;
import dev.hangar.cluster.replication.ReplicatedBlockStore;
import dev.hangar.cluster.replication.ReplicationConfig;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.table.AntiEntropy;
import dev.hangar.cluster.table.HybridLogicalClock;
import dev.hangar.cluster.table.ReplicatedTable;
import dev.hangar.cluster.table.RocksDbLocalTable;
import dev.hangar.cluster.table.TableConfig;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.rocksdb.RocksDbConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * A node of a replicated cluster: its metadata is a {@link ReplicatedMetadataStore} over a table
 * replicated on the nodes of each partition, its blocks a {@link ReplicatedBlockStore} on the nodes
 * of each block's partition, both leaderless and at the quorums of the configured consistency. Any
 * node serves any request; a node of capacity 0 stores nothing and is a pure gateway.
 *
 * <p>Replicas converge three ways: a write goes to every replica of its partition (acknowledged at
 * the write quorum); reads repair the stale replicas they meet; and anti-entropy compares each
 * partition with its other replicas — periodically, at once with a node that comes back UP, and
 * after every layout change, which is also when blocks move to their new owners.
 *
 * <p>A node frees the chunks its own mutations made unreachable, after the garbage grace of its
 * {@link ReclaimConfig} and only once no node's reads hold them: its reclaimer asks the others
 * ({@link ClusterReaders}), and answers their questions about its own reads.
 *
 * <p>The node's own data lives in its data folder: {@code cluster/table} (its replica of the
 * metadata table), {@code cluster/garbage} (blocks this node made unreachable, to delete), and
 * {@code blocks} (its copies of blocks) unless it is a gateway.
 */
final class ClusteredNode implements ClusterNode {
    private static final Logger LOG = Logger.getLogger(ClusteredNode.class.getName());
    /** How often every partition is compared with its other replicas, whatever else happens. */
    static final Duration ANTI_ENTROPY_INTERVAL = Duration.ofMinutes(10);
    /** How long a replica may take to answer a metadata call before it counts as failed. */
    static final Duration TABLE_TIMEOUT = Duration.ofSeconds(5);
    /** Tombstones outlive any outage after which a node may rejoin with its old data. */
    static final Duration TOMBSTONE_GC_DELAY = Duration.ofDays(7);
    static final Duration TOMBSTONE_PURGE_INTERVAL = Duration.ofHours(1);
    private static final long GROUP_BLOCK_CACHE_BYTES = 16L << 20;

    private final ClusterControl control;
    private final @Nullable BlockStore localBlocks;
    private final RocksDbLocalTable localTable;
    private final ReplicatedTable table;
    private final AntiEntropy antiEntropy;
    private final ReplicatedBlockStore blocks;
    /** The leaderless metadata store; null in the Raft mode. */
    private final @Nullable ReplicatedMetadataStore metadata;
    private final Replication replication;
    private final BlockReclaimer reclaimer;
    private final StorageMaintenance maintenance;
    private final ScheduledExecutorService tombstonePurge = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("hangar-tombstone-purge").factory());

    private ClusteredNode(ClusterControl control, @Nullable BlockStore localBlocks, RocksDbLocalTable localTable,
            ReplicatedTable table, AntiEntropy antiEntropy, ReplicatedBlockStore blocks,
            @Nullable ReplicatedMetadataStore metadata, Replication replication, BlockReclaimer reclaimer,
            StorageMaintenance maintenance) {
        this.control = control;
        this.localBlocks = localBlocks;
        this.localTable = localTable;
        this.table = table;
        this.antiEntropy = antiEntropy;
        this.blocks = blocks;
        this.metadata = metadata;
        this.replication = replication;
        this.reclaimer = reclaimer;
        this.maintenance = maintenance;
    }

    /**
     * Opens the node's local stores, starts the control plane with the replicated services on it,
     * and joins the cluster through the seeds.
     */
    static ClusteredNode start(NodeConfig config, MaintenanceConfig maintenanceConfig, ClusterSettings settings,
            MembershipTiming timing, ReclaimConfig reclaim, @Nullable RaftSettings raftSettings) {
        Path dataDir = config.dataDirectory();
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            Files.createDirectories(dataDir);
            BlockStore localBlocks = settings.capacity() == 0 ? null : SingleNode.openBlocks(config, true);
            if (localBlocks != null) {
                opened.add(localBlocks);
            }
            RocksDbLocalTable localTable =
                    RocksDbLocalTable.open(dataDir.resolve("cluster").resolve("table"),
                            ClusterLayout.DEFAULT_PARTITIONS, ReplicatedMetadataStore.MERGE_RULE);
            opened.add(localTable);
            int rf = settings.replicationFactor();
            TableConfig tableConfig = new TableConfig(ReplicatedMetadataStore.TABLE,
                    settings.consistency().writeQuorum(rf), settings.consistency().readQuorum(rf), TABLE_TIMEOUT,
                    TOMBSTONE_GC_DELAY, ReplicatedMetadataStore.MERGE_RULE);
            ReplicationConfig defaults = ReplicationConfig.defaults();
            ReplicationConfig replication = new ReplicationConfig(settings.consistency().writeQuorum(rf),
                    defaults.writeTimeout(), defaults.readTimeout(), defaults.maxBlockBytes(), defaults.resyncInterval());
            AtomicReference<Services> services = new AtomicReference<>();
            // The leases exist before the RPC port opens, so that other nodes can ask about them from the first
            // request on; the reclaimer, built once the metadata exists, is told of releases once it exists.
            AtomicReference<BlockReclaimer> reclaimers = new AtomicReference<>();
            ReaderLeases leases = new ReaderLeases(() -> {
                BlockReclaimer reclaimer = reclaimers.get();
                if (reclaimer != null) {
                    reclaimer.reclaimSoon();
                }
            });
            ClusterControl control;
            try {
                control = ClusterControl.start(settings, dataDir, timing,
                        (self, server, client, faults, layouts, addresses, statuses) -> {
                            ReplicatedTable table = new ReplicatedTable(tableConfig, self, layouts::current,
                                    statuses, client, server, addresses, localTable,
                                    new HybridLogicalClock(self, settings.maxClockSkew()));
                            AntiEntropy antiEntropy = new AntiEntropy(tableConfig, self, layouts::current, client,
                                    server, addresses, localTable, table.clock());
                            ReplicatedBlockStore blocks = new ReplicatedBlockStore(self, layouts::current, statuses,
                                    localBlocks, client, server, addresses, replication,
                                    dataDir.resolve("cluster").resolve("resync"));
                            SettingsInvalidation invalidation = new SettingsInvalidation(self, layouts::current,
                                    client, server, addresses, SettingsInvalidation.DEFAULT_WAIT);
                            ClusterReaders.serve(server, leases);
                            // Ratis starts here, on the thread that starts the node (see RaftHost).
                            RaftReplication raft = raftSettings == null ? null : RaftReplication.start(self,
                                    raftSettings, dataDir.resolve("cluster").resolve("raft"),
                                    config.sync().mode() == SyncPolicy.Mode.ALWAYS, ClusteredNode::groupStore, settings.secret(),
                                    server, client, addresses, faults, layouts::clusterId);
                            services.set(new Services(table, antiEntropy, blocks, invalidation, client, raft));
                        });
            } catch (RuntimeException e) {
                // The services may exist (the port failed to bind after they were built): close them too.
                Services built = services.get();
                if (built != null) {
                    opened.addAll(List.of(built.blocks, built.antiEntropy, built.table));
                    if (built.raft != null) {
                        opened.add(built.raft);
                    }
                }
                throw e;
            }
            Services started = services.get();
            opened.add(started.blocks);
            opened.add(started.antiEntropy);
            opened.add(started.table);
            opened.add(control);
            ReplicatedMetadataStore metadata = null;
            Replication replicationPolicy;
            MetadataStore bookkeeping;
            if (started.raft == null) {
                metadata = new ReplicatedMetadataStore(started.table, dataDir.resolve("cluster").resolve("garbage"),
                        ReplicatedMetadataStore.DEFAULT_SETTINGS_TTL, reclaim.garbageGrace(), started.invalidation);
                opened.add(metadata);
                replicationPolicy = new StoreReplication(ReplicationMode.LEADERLESS, metadata, started.table::readRepairs);
                bookkeeping = metadata;
            } else {
                opened.add(started.raft);
                replicationPolicy = started.raft;
                bookkeeping = started.raft.state();
            }
            ClusterReaders peerReaders = new ClusterReaders(control.selfId(), started.client, control::statuses,
                    reclaim.silentNodeWait(), Clock.systemUTC());
            BlockReclaimer reclaimer =
                    new BlockReclaimer(bookkeeping, started.blocks, leases, peerReaders, config.reclaimInterval());
            reclaimers.set(reclaimer);
            opened.add(reclaimer);
            StorageMaintenance maintenance =
                    new StorageMaintenance(bookkeeping, started.blocks, reclaimer.leases(), maintenanceConfig,
                            Clock.systemUTC(), false);
            ClusteredNode node = new ClusteredNode(control, localBlocks, localTable, started.table,
                    started.antiEntropy, started.blocks, metadata, replicationPolicy, reclaimer, maintenance);
            node.listen();
            return node;
        } catch (IOException e) {
            closeAll(opened, e);
            throw new UncheckedIOException("cannot open the cluster node's storage in " + dataDir, e);
        } catch (RuntimeException e) {
            closeAll(opened, e);
            throw e;
        }
    }

    private record Services(ReplicatedTable table, AntiEntropy antiEntropy, ReplicatedBlockStore blocks,
            SettingsInvalidation invalidation, RpcClient client, @Nullable RaftReplication raft) {}

    // A group's replica: unsynced, since the Raft log is what must be durable (see CommandStateMachine); a small
    // block cache each, as a node holds several.
    private static RocksDbConfig groupStore(Path folder) {
        return new RocksDbConfig(folder, SyncPolicy.NONE, GROUP_BLOCK_CACHE_BYTES);
    }

    // A node that comes back UP missed writes; so did this one, if it was the one away. Either side
    // syncing the partitions they share brings both up to date, so each does it on seeing the other.
    private void listen() {
        NodeId self = control.selfId();
        control.addMembershipListener((before, after) -> {
            if (after.id().equals(self) || after.state() != PeerStatus.State.UP
                    || (before != null && before.state() == PeerStatus.State.UP)) {
                return;
            }
            if (leaderlessMetadata()) {
                antiEntropy.syncWith(after.id()).whenComplete((stats, failure) -> {
                    if (failure != null) {
                        LOG.log(Level.FINE, "anti-entropy with " + after.id() + " failed; the periodic run retries",
                                failure);
                    } else {
                        LOG.info(() -> "metadata resync with returning node " + after.id() + ": " + stats);
                    }
                });
            }
            Thread.ofVirtual().start(blocks.resyncQueue()::runOnce);
        });
        if (replication instanceof RaftReplication raft) {
            control.addLayoutListener(raft::layout);
            raft.layout(control.layout());
        }
        AtomicReference<ClusterLayout> previous = new AtomicReference<>(control.layout());
        control.addLayoutListener(next -> {
            ClusterLayout before = previous.getAndSet(next);
            if (before.version() >= next.version()) {
                return;
            }
            Thread.ofVirtual().name("hangar-rebalance").start(() -> rebalance(before, next));
        });
        // The Raft mode's metadata catches up through its logs; the leaderless table stays empty there.
        if (leaderlessMetadata()) {
            antiEntropy.start(ANTI_ENTROPY_INTERVAL);
            tombstonePurge.scheduleWithFixedDelay(this::purgeTombstones, TOMBSTONE_PURGE_INTERVAL.toMinutes(),
                    TOMBSTONE_PURGE_INTERVAL.toMinutes(), TimeUnit.MINUTES);
        }
    }

    private boolean leaderlessMetadata() {
        return metadata != null;
    }

    // Tombstones older than the GC delay have reached every replica that was up since (anti-entropy
    // runs far more often than the delay is long); without this they would pile up forever.
    private void purgeTombstones() {
        try {
            int purged = table.purgeTombstones();
            LOG.fine(() -> "purged " + purged + " tombstones older than " + TOMBSTONE_GC_DELAY);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "purging old tombstones failed; the next run retries", e);
        }
    }

    private void rebalance(ClusterLayout before, ClusterLayout next) {
        try {
            int queued = blocks.resyncQueue().rebalance(before, next);
            LOG.info(() -> "layout v" + next.version() + ": " + queued + " block copies queued for their new owners");
            if (leaderlessMetadata()) {
                antiEntropy.runOnce().join();
            }
            blocks.resyncQueue().runOnce();
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "moving data to the owners of layout v" + next.version()
                    + " failed; the periodic runs retry", e);
        }
    }

    @Override
    public Replication replication() {
        return replication;
    }

    /** The leaderless metadata table this node coordinates through: for tests of the table itself. */
    ReplicatedTable table() {
        return table;
    }

    @Override
    public ReplicatedBlockStore blocks() {
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

    @Override
    public Optional<ClusterControl> control() {
        return Optional.of(control);
    }

    @Override
    public Optional<ReplicationView> replicas() {
        return Optional.of(new ReplicationView(blocks, localTable, localBlocks));
    }

    /**
     * Leaves the cluster first (peers see this node go away and stop counting on it), then stops the
     * background work, then closes the stores, the local ones last.
     */
    @Override
    public void close() {
        List<AutoCloseable> order = new ArrayList<>();
        order.add(tombstonePurge::shutdownNow);
        order.add(maintenance);
        order.add(reclaimer);
        order.add(antiEntropy);
        if (replication instanceof RaftReplication raft) {
            order.add(raft);
        }
        order.add(control);
        order.add(blocks);
        order.add(table);
        if (metadata != null) {
            order.add(metadata);
        }
        order.add(localTable);
        if (localBlocks != null) {
            order.add(localBlocks);
        }
        RuntimeException failure = null;
        for (AutoCloseable closeable : order) {
            try {
                closeable.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("closing the cluster node failed", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static void closeAll(List<AutoCloseable> opened, Exception failure) {
        for (AutoCloseable closeable : opened.reversed()) {
            try {
                closeable.close();
            } catch (Exception e) {
                failure.addSuppressed(e);
            }
        }
    }
}
