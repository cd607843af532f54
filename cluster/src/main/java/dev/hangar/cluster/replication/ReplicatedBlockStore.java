package dev.hangar.cluster.replication;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.BlockStoreStatistics;
import dev.hangar.blockstore.CompactionReport;
import dev.hangar.blockstore.CorruptBlockException;
import dev.hangar.blockstore.NoSuchBlockException;
import dev.hangar.blockstore.StoredBlock;
import dev.hangar.cluster.RoundTrips;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.Partitioning;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.membership.ReplicaOrder;
import dev.hangar.cluster.replication.BlockWire.GetReply;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcServer;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The block store of a cluster node: each block lives on the replicas of its partition, whichever
 * node is asked. Any node, gateways included, may coordinate any operation.
 *
 * <p><b>Writes</b> read the block into memory (it is one chunk, bounded by {@link
 * ReplicationConfig#maxBlockBytes}), send it to every replica at once — one round — and return as
 * soon as the write quorum acknowledged. Replicas that fail or stay silent get a copy queued in the
 * {@link ResyncQueue} (kept on disk when the store is given a folder for it, so that a restart of
 * the coordinator does not forget it); if the quorum cannot be reached the write fails with {@link
 * QuorumNotReachedException} and the copies that did land are deleted, best effort (one that lands
 * after the delete is an orphan for the scrub to find).
 *
 * <p><b>Reads</b> ask one replica at a time — those membership believes up first, closest first
 * among them (this node, its zone, the others), then the ones it believes suspect or down ({@link
 * ReplicaOrder}) — and move to the next one on a failure, a missing copy, or — for the verified
 * {@link #read(BlockRef, long, long)} — a corrupt one; the range is buffered, at most one block. A
 * node that is no longer a replica but still holds a copy awaiting release is tried last.
 *
 * <p>{@link #forEachBlock}, {@link #compact}, {@link #statistics} and {@link #sync} are about this
 * node's local copies. The store does not own the local store, the RPC client or server: the node
 * closes them after this.
 */
public final class ReplicatedBlockStore implements BlockStore {
    private final NodeId self;
    private final Supplier<ClusterLayout> layout;
    private final Supplier<Map<NodeId, PeerStatus>> statuses;
    private final @Nullable BlockStore local;
    private final BlockService service;
    private final BlockPeers peers;
    private final ReplicationConfig config;
    private final ResyncQueue resync;
    private final RoundCounters counters = new RoundCounters();
    private volatile boolean closed;

    /**
     * A store for node {@code self} that serves its {@code local} store (null for a gateway) on
     * {@code server} — whose handlers it registers, so the server must not be started yet — and
     * reaches the other nodes through {@code client} at the addresses {@code resolver} gives. Without
     * membership it knows no node's state, so it asks replicas closest first. Its resync queue is in
     * memory only.
     */
    public ReplicatedBlockStore(NodeId self, Supplier<ClusterLayout> layout, @Nullable BlockStore local,
            RpcClient client, RpcServer server, Function<NodeId, InetSocketAddress> resolver,
            ReplicationConfig config) {
        this(self, layout, Map::of, local, client, server, resolver, config, null);
    }

    /**
     * As above, asking the replicas that {@code statuses} (membership's live view of the other
     * nodes) shows up before the others, and with the resync queue
     * kept in {@code resyncDir} (created if needed; null: in memory only) so that repairs queued
     * before a restart are continued after it. The folder belongs to this store alone while it is
     * open.
     *
     * @throws UncheckedIOException if the queue's store cannot be opened
     */
    public ReplicatedBlockStore(NodeId self, Supplier<ClusterLayout> layout,
            Supplier<Map<NodeId, PeerStatus>> statuses, @Nullable BlockStore local, RpcClient client,
            RpcServer server, Function<NodeId, InetSocketAddress> resolver, ReplicationConfig config,
            @Nullable Path resyncDir) {
        this.self = self;
        this.layout = layout;
        this.statuses = statuses;
        this.local = local;
        this.config = config;
        this.service = new BlockService(local, this::storedUnder);
        this.peers = new BlockPeers(client, resolver, config);
        this.resync = new ResyncQueue(self, layout, statuses, local, service, peers, config,
                openResyncStore(resyncDir));
        try {
            service.register(server);
            resync.start(config.resyncInterval());
        } catch (RuntimeException e) {
            resync.close();
            throw e;
        }
    }

    private static ResyncStore openResyncStore(@Nullable Path folder) {
        if (folder == null) {
            return ResyncStore.none();
        }
        try {
            return RocksDbResyncStore.open(folder);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public NodeId self() {
        return self;
    }

    public ResyncQueue resyncQueue() {
        return resync;
    }

    public ReplicationStats stats() {
        return counters.snapshot(resync.queuedTotal());
    }

    /** The replicas of {@code id}'s partition in the current layout, in layout order. */
    public List<NodeId> replicasOf(BlockId id) {
        return replicasIn(layout.get(), id);
    }

    static List<NodeId> replicasIn(ClusterLayout layout, BlockId id) {
        return layout.replicas(Partitioning.of(layout).partitionOfBlock(id.value()));
    }

    /** Blocks a chained read fetches ahead: a block read from another node costs a round trip. */
    public static final int READ_AHEAD = 2;

    /**
     * {@value #READ_AHEAD}: while a large object streams one block, the next ones are already on
     * their way from their replicas, so a GET pays about one round trip per {@value #READ_AHEAD}
     * blocks rather than one per block, at the cost of holding up to that many blocks in memory per
     * stream.
     */
    @Override
    public int readAhead() {
        return READ_AHEAD;
    }

    /** Block writes of one stream running at once: each block write waits for a round trip. */
    public static final int WRITE_BEHIND = 2;

    /**
     * {@value #WRITE_BEHIND}: while one block of a large object travels to its replicas, the next is
     * read from the client and sent too, so a PUT pays about one round trip per {@value
     * #WRITE_BEHIND} blocks rather than one per block, at the cost of holding up to {@value
     * #WRITE_BEHIND} more blocks in memory per stream.
     */
    @Override
    public int writeBehind() {
        return WRITE_BEHIND;
    }

    @Override
    public BlockRef write(BlockId id, InputStream content) throws IOException {
        ensureOpen();
        byte[] data = readBlock(id, content);
        BlockRef ref = new BlockRef(id, data.length, BlockService.crc32c(data));
        ClusterLayout placement = layout.get();
        List<NodeId> replicas = replicasIn(placement, id);
        if (replicas.isEmpty()) {
            throw new QuorumNotReachedException("block " + id + ": the layout has no storage node", 0, 1);
        }
        int needed = Math.min(config.writeQuorum(), replicas.size());
        Map<NodeId, CompletableFuture<Void>> acks = new LinkedHashMap<>();
        // Remote copies first, so the network round overlaps the local write.
        for (NodeId node : replicas) {
            if (!node.equals(self)) {
                acks.put(node, peers.put(node, ref, data, placement.version()));
            }
        }
        if (replicas.contains(self)) {
            acks.put(self, writeLocally(ref, data, placement.version()));
        }
        boolean remote = acks.size() > (replicas.contains(self) ? 1 : 0);
        counters.write(remote);
        RoundTrips.current().addBlocks(remote ? 1 : 0);
        try {
            Await.await(Quorum.of(List.copyOf(acks.values()), needed), config.writeTimeout());
        } catch (IOException failure) {
            undo(id, acks);
            throw notReached(id, acks, needed);
        }
        // Registered after the quorum so that only an acknowledged block gets repaired; the
        // callbacks may run on I/O threads, and adding to the queue does not block.
        acks.forEach((node, ack) -> ack.whenComplete((ok, failure) -> {
            if (failure != null) {
                resync.add(ResyncQueue.Copy.of(ref, node));
            }
        }));
        return ref;
    }

    @Override
    public InputStream read(BlockId id, long offset, long length) throws IOException {
        ensureOpen();
        if (offset < 0 || length < 0) {
            throw new IndexOutOfBoundsException("negative range " + offset + "+" + length);
        }
        return new ByteArrayInputStream(readFromReplicas(new BlockWire.Get(id, offset, length, null)));
    }

    @Override
    public InputStream read(BlockRef block, long offset, long length) throws IOException {
        ensureOpen();
        Objects.checkFromIndexSize(offset, length, block.size());
        return new ByteArrayInputStream(readFromReplicas(new BlockWire.Get(block.id(), offset, length, block)));
    }

    @Override
    public boolean exists(BlockId id) throws IOException {
        ensureOpen();
        List<NodeId> replicas = replicasOf(id);
        boolean localAnswered = false;
        if (local != null && replicas.contains(self)) {
            if (local.exists(id)) {
                return true;
            }
            localAnswered = true;
        }
        List<NodeId> remote = replicas.stream().filter(node -> !node.equals(self)).toList();
        if (remote.isEmpty()) {
            return false;
        }
        CompletableFuture<Boolean> any = new CompletableFuture<>();
        AtomicInteger pending = new AtomicInteger(remote.size());
        AtomicInteger answered = new AtomicInteger(localAnswered ? 1 : 0);
        for (NodeId node : remote) {
            peers.exists(node, id).whenComplete((present, failure) -> {
                if (failure == null) {
                    answered.incrementAndGet();
                    if (present) {
                        any.complete(true);
                    }
                }
                if (pending.decrementAndGet() == 0) {
                    if (answered.get() > 0) {
                        any.complete(false);
                    } else {
                        any.completeExceptionally(new IOException("no replica of block " + id + " answered"));
                    }
                }
            });
        }
        return Await.await(any, config.readTimeout());
    }

    /**
     * Deletes every replica's copy (and any copy this node keeps): in parallel, best effort. A replica
     * that could not be reached gets the delete queued; copies of the block still queued are dropped.
     */
    @Override
    public void delete(BlockId id) throws IOException {
        ensureOpen();
        resync.forgetCopies(id);
        Map<NodeId, CompletableFuture<Void>> acks = new LinkedHashMap<>();
        for (NodeId node : replicasOf(id)) {
            if (!node.equals(self)) {
                acks.put(node, peers.delete(node, id));
            }
        }
        if (local != null) {
            local.delete(id);
        }
        try {
            Await.await(CompletableFuture.allOf(acks.values().toArray(CompletableFuture[]::new)),
                    config.writeTimeout());
        } catch (IOException someFailed) {
            // Looked at one by one below.
        }
        acks.forEach((node, ack) -> {
            if (!ack.isDone() || ack.isCompletedExceptionally()) {
                resync.add(new ResyncQueue.Delete(id, node));
            }
        });
    }

    @Override
    public void forEachBlock(Consumer<StoredBlock> visitor) throws IOException {
        ensureOpen();
        if (local != null) {
            local.forEachBlock(visitor);
        }
    }

    @Override
    public CompactionReport compact() throws IOException {
        ensureOpen();
        return local == null ? CompactionReport.NOTHING : local.compact();
    }

    @Override
    public BlockStoreStatistics statistics() {
        return local == null ? BlockStoreStatistics.NONE : local.statistics();
    }

    /** Forces this node's local copies; each replica syncs its own by its store's policy. */
    @Override
    public void sync() throws IOException {
        ensureOpen();
        if (local != null) {
            local.sync();
        }
    }

    /**
     * Stops the resync worker, closes the queue's store and refuses further operations; the local
     * store stays open.
     */
    @Override
    public void close() {
        closed = true;
        resync.close();
    }

    @Override
    public String toString() {
        return "ReplicatedBlockStore[" + self + "]";
    }

    private byte[] readBlock(BlockId id, InputStream content) throws IOException {
        byte[] data = content.readNBytes(config.maxBlockBytes());
        if (content.read() != -1) {
            throw new IOException("block " + id + " is larger than the " + config.maxBlockBytes()
                    + " bytes one replication message can carry");
        }
        return data;
    }

    /**
     * After a copy landed here for a writer that chose the replicas under layout {@code
     * writerVersion}: if this node has moved to a newer layout since, its rebalance for that layout
     * may have listed the local store before the copy landed, and the copy would then reach none of
     * the block's new owners. The resync queue passes it on as that rebalance would have.
     */
    private void storedUnder(BlockRef block, long writerVersion) {
        ClusterLayout current = layout.get();
        if (current.version() > writerVersion) {
            resync.landedLate(block, current);
        }
    }

    private CompletableFuture<Void> writeLocally(BlockRef ref, byte[] data, long layoutVersion) {
        try {
            service.store(ref.id(), ref.crc32c(), data, layoutVersion);
            return CompletableFuture.completedFuture(null);
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private void undo(BlockId id, Map<NodeId, CompletableFuture<Void>> acks) {
        acks.forEach((node, ack) -> {
            if (node.equals(self)) {
                if (!ack.isCompletedExceptionally() && local != null) {
                    try {
                        local.delete(id);
                    } catch (IOException e) {
                        // An orphan for the scrub; the write fails either way.
                    }
                }
            } else {
                // Also for a replica that has not answered yet: its copy may still land.
                ack.whenComplete((ok, failure) -> {
                    if (failure == null) {
                        peers.delete(node, id);
                    }
                });
            }
        });
    }

    private QuorumNotReachedException notReached(
            BlockId id, Map<NodeId, CompletableFuture<Void>> acks, int needed) {
        int acknowledged = 0;
        List<String> reasons = new ArrayList<>();
        for (Map.Entry<NodeId, CompletableFuture<Void>> entry : acks.entrySet()) {
            CompletableFuture<Void> ack = entry.getValue();
            if (!ack.isDone()) {
                reasons.add(entry.getKey() + ": no answer");
            } else if (ack.isCompletedExceptionally()) {
                reasons.add(entry.getKey() + ": " + Await.reason(ack.exceptionNow()));
            } else {
                acknowledged++;
            }
        }
        return new QuorumNotReachedException("block " + id + ": " + acknowledged + " of " + acks.size()
                + " replicas acknowledged the write, " + needed + " needed " + reasons, acknowledged, needed);
    }

    private byte[] readFromReplicas(BlockWire.Get get) throws IOException {
        ClusterLayout current = layout.get();
        List<NodeId> order = new ArrayList<>(
                ReplicaOrder.readOrder(current, self, replicasIn(current, get.id()), statuses.get()));
        if (local != null && !order.contains(self)) {
            order.add(self);
        }
        int asked = 0;
        int remoteAsked = 0;
        boolean corrupt = false;
        List<String> errors = new ArrayList<>();
        try {
            for (NodeId node : order) {
                asked++;
                if (node.equals(self)) {
                    BlockStore store = local;
                    if (store == null) {
                        continue;
                    }
                    try {
                        return BlockService.readLocal(store, get);
                    } catch (NoSuchBlockException missing) {
                        continue;
                    } catch (CorruptBlockException | EOFException damaged) {
                        corrupt = true;
                        continue;
                    } catch (IOException e) {
                        errors.add(self + ": " + Await.reason(e));
                        continue;
                    }
                }
                remoteAsked++;
                GetReply reply;
                try {
                    reply = Await.await(peers.get(node, get), config.readTimeout());
                } catch (IOException e) {
                    errors.add(node + ": " + Await.reason(e));
                    continue;
                }
                switch (reply.status()) {
                    case FOUND -> {
                        return reply.data();
                    }
                    case MISSING -> {}
                    case CORRUPT -> corrupt = true;
                    case OUT_OF_RANGE -> throw new IndexOutOfBoundsException(
                            "range " + get.offset() + "+" + get.length() + " is outside block " + get.id());
                }
            }
        } finally {
            counters.read(remoteAsked, Math.max(0, asked - 1));
            // Replicas are asked one after the other: each remote one is a round of its own.
            RoundTrips.current().addBlocks(remoteAsked);
        }
        if (!errors.isEmpty()) {
            throw new IOException("no replica of block " + get.id() + " could be read " + errors);
        }
        if (corrupt) {
            throw new CorruptBlockException(get.id(), "every replica's copy is corrupt or missing");
        }
        throw new NoSuchBlockException(get.id());
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
    }
}
