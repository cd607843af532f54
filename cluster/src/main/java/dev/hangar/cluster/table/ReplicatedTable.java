package dev.hangar.cluster.table;

import dev.hangar.cluster.RoundTrips;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.membership.ReplicaOrder;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcServer;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A table replicated over the nodes of each partition, leaderless: any node coordinates any
 * operation, writes go to every replica and are acknowledged at the write quorum, reads merge the
 * answers of the read quorum and repair the replicas found stale.
 *
 * <p>Each put and each get costs one round of parallel calls (none when the local replica suffices),
 * because there is nothing to agree on: entries merge by the table's {@link MergeRule} wherever they
 * meet. The price, with the default rule, is that concurrent writes of one key keep only the last,
 * by hybrid timestamp.
 *
 * <p>The futures complete on Netty I/O or virtual threads; dependent stages must not block.
 *
 * <p>This class is the table's face: its RPC methods and its operations. Beneath it,
 * package-private: {@link Replicas} (which nodes to ask and how, this node's copy and clock, read
 * repair), {@link QuorumWrite} (puts), {@link SwapRound} (what a swap replaced), {@link QuorumRead}
 * (gets and range pages).
 */
public final class ReplicatedTable implements AutoCloseable {
    private static final byte[] EMPTY = new byte[0];

    private final Replicas replicas;
    private final QuorumWrite writes;
    private final SwapRound swaps;
    private final QuorumRead reads;

    /** A table on the system clock; registers its methods on {@code server}. */
    public ReplicatedTable(TableConfig config, NodeId self, Supplier<ClusterLayout> layout, RpcClient client,
            RpcServer server, Function<NodeId, InetSocketAddress> addresses, LocalTable local) {
        this(config, self, layout, client, server, addresses, local, new HybridLogicalClock(self));
    }

    /**
     * A table on {@code clock} whose reads know nothing of membership (closest replicas first);
     * registers its methods on {@code server}.
     */
    public ReplicatedTable(TableConfig config, NodeId self, Supplier<ClusterLayout> layout, RpcClient client,
            RpcServer server, Function<NodeId, InetSocketAddress> addresses, LocalTable local,
            HybridLogicalClock clock) {
        this(config, self, layout, Map::of, client, server, addresses, local, clock);
    }

    /**
     * A table on {@code clock} whose reads ask first the replicas {@code statuses} (every known node
     * as membership sees it) shows up ({@link ReplicaOrder}); registers its methods on {@code server}.
     */
    public ReplicatedTable(TableConfig config, NodeId self, Supplier<ClusterLayout> layout,
            Supplier<Map<NodeId, PeerStatus>> statuses, RpcClient client, RpcServer server,
            Function<NodeId, InetSocketAddress> addresses, LocalTable local, HybridLogicalClock clock) {
        if (local.mergeRule() != config.mergeRule()) {
            throw new IllegalArgumentException("the local replica of table " + config.name()
                    + " merges by another rule than the table's");
        }
        this.replicas = new Replicas(config, self, layout, statuses, client, addresses, local, clock);
        this.writes = new QuorumWrite(replicas);
        this.swaps = new SwapRound(replicas, writes);
        this.reads = new QuorumRead(replicas);
        // Server handlers run on virtual threads: blocking on RocksDB there is fine.
        server.register(config.method("merge"), (from, payload) -> {
            List<Entry> entries = Wire.entries(payload);
            // All or nothing: a batch with one timestamp from the far future is refused whole.
            for (Entry entry : entries) {
                clock.check(entry.timestamp());
            }
            for (Entry entry : entries) {
                replicas.mergeLocally(entry);
            }
            return CompletableFuture.completedFuture(EMPTY);
        });
        server.register(config.method("swap"), (from, payload) -> {
            Wire.SwapRequest request = Wire.swapRequest(payload);
            clock.update(request.entry().timestamp());
            return CompletableFuture.completedFuture(Wire.swapReply(writes.swapLocally(request.entry(), request.peek())));
        });
        server.register(config.method("get"), (from, payload) -> {
            Wire.GetRequest request = Wire.getRequest(payload);
            return CompletableFuture.completedFuture(
                    Wire.optionalEntry(local.get(request.partitionKey(), request.sortKey())));
        });
        // Coordinators of earlier releases send "range" and take a page of limit entries, deletions
        // included, for a full one; answering them a range.live page would make them miss keys.
        // (Their replicas do not answer range.live: a read through a node of this release needs
        // a read quorum of this release, as the swap message already requires.)
        server.register(config.method("range"), (from, payload) -> {
            Wire.RangeRequest request = Wire.rangeRequest(payload);
            return CompletableFuture.completedFuture(
                    Wire.entries(local.range(request.partitionKey(), request.fromSortKey(), request.untilSortKey(),
                            request.limit())));
        });
        server.register(config.method("range.live"), (from, payload) -> {
            Wire.RangeRequest request = Wire.liveRangeRequest(payload);
            return CompletableFuture.completedFuture(
                    Wire.entries(local.rangeCountingLive(request.partitionKey(), request.fromSortKey(),
                            request.untilSortKey(), request.limit(), request.cap())));
        });
    }

    public TableConfig config() {
        return replicas.config();
    }

    public NodeId self() {
        return replicas.self();
    }

    /** This node's replica. */
    public LocalTable local() {
        return replicas.local();
    }

    public HybridLogicalClock clock() {
        return replicas.clock();
    }

    /** Sequential inter-node rounds per operation ({@code put}, {@code get}, {@code range}). */
    public RoundStats rounds() {
        return replicas.rounds();
    }

    /** Entries sent to replicas found stale by reads, so far. */
    public long readRepairs() {
        return replicas.readRepairs();
    }

    /** Writes {@code value} under a fresh timestamp of this node's clock. */
    public CompletableFuture<Entry> put(byte[] partitionKey, byte[] sortKey, byte[] value) {
        return put(Entry.of(partitionKey, sortKey, value, clock().now()));
    }

    /** Deletes by writing a tombstone under a fresh timestamp. */
    public CompletableFuture<Entry> delete(byte[] partitionKey, byte[] sortKey) {
        return put(Entry.tombstone(partitionKey, sortKey, clock().now()));
    }

    /**
     * Sends {@code entry} to every replica of its partition and completes with it once the write
     * quorum stored it; the other replicas still get it in the background. Fails with {@link
     * QuorumException} when too few replicas answer within the timeout. An entry that loses to a
     * newer one on a replica still counts as an ack: that replica holds a state at least as new.
     *
     * <p>When this node is a replica, its own copy is written only once the other replicas have
     * given the acks the quorum needs besides it. A node cut off from the others therefore never
     * applies a write it cannot get acknowledged — it cannot spread later as a write that "failed"
     * — and the price is a local write (far shorter than the round) after the round instead of
     * during it. The put also waits for that local copy, so that what this node reads from its own
     * replica afterwards (statistics, the block references a scrub walks) includes its own
     * acknowledged writes.
     */
    public CompletableFuture<Entry> put(Entry entry) {
        return writes.replicate(List.of(entry), false, List.of(), RoundTrips.current()).thenApply(done -> entry);
    }

    /**
     * Writes several entries, each as {@link #put} does: one write of all the entries of each
     * partition key (one call per replica, carrying them all), the partition keys in parallel, so
     * the whole costs one round. Completes once every partition key's write quorum stored its
     * entries; fails if any missed its quorum, and then the others may have been stored or not.
     * A replica merges the entries of one call one after the other, not atomically: a reader may
     * meet some of them without the others while the call is applied, or after a replica crashed
     * in the middle of one (the other replicas of the quorum hold them all).
     */
    public CompletableFuture<Void> putAll(List<Entry> entries) {
        Map<ByteBuffer, List<Entry>> byPartitionKey = new LinkedHashMap<>();
        for (Entry entry : entries) {
            byPartitionKey.computeIfAbsent(ByteBuffer.wrap(entry.partitionKey()), key -> new ArrayList<>()).add(entry);
        }
        RoundTrips.Tally caller = RoundTrips.current();
        List<RoundTrips.Tally> tallies = new ArrayList<>();
        List<CompletableFuture<?>> groupWrites = new ArrayList<>();
        for (List<Entry> group : byPartitionKey.values()) {
            RoundTrips.Tally tally = new RoundTrips.Tally();
            tallies.add(tally);
            groupWrites.add(writes.replicate(group, false, List.of(), tally));
        }
        // Parallel writes are one round: the caller waits for the slowest, not for their sum.
        return CompletableFuture.allOf(groupWrites.toArray(CompletableFuture[]::new)).thenRun(() -> caller.addMetadata(
                tallies.stream().mapToInt(RoundTrips.Tally::metadata).max().orElse(0)));
    }

    /**
     * What a {@link #swap} wrote, and what the replicas held before it.
     *
     * @param written the entry, stored at the write quorum
     * @param previous the winner, under the table's merge rule, of the entries the replicas held for
     *     its key before it: the entry that was current, since the replicas that answered it
     *     include a write quorum's worth that had not met {@code written} yet, and such a quorum
     *     intersects the quorum of every earlier acknowledged write — unless a concurrent write got
     *     in between (then it may be an older one, and the one in between is missed), or too few
     *     replicas could answer that (see {@link #swap(Entry, List)}). It is never {@code written}
     *     itself, but may win over it: a concurrent write, or one that {@code written} cannot beat
     * @param peeked for each sort key the swap was asked to peek at, the winner of what those
     *     replicas held there (tombstones included), in the order asked
     */
    public record Swapped(Entry written, Optional<Entry> previous, List<Optional<Entry>> peeked) {}

    /**
     * {@link #put} that also learns, in the same round, what the entry replaced: a blind write
     * that still lets the caller free what the old value referenced.
     */
    public CompletableFuture<Swapped> swap(Entry entry) {
        return swap(entry, List.of());
    }

    /**
     * {@link #swap} that also reads, in the same round and from the same replicas, the entries of
     * other sort keys of the entry's partition key: what a blind write needs to know to tell
     * whether it was enough.
     *
     * <p>A replica may meet the entry before its swap does: read repair (a read through another
     * node that met it on a faster replica) or anti-entropy can carry it there first, and that
     * replica then answers the entry itself, which tells nothing of what it replaced (and, as the
     * newest, would hide the answers that do). So an answer that is the entry counts for nothing;
     * a coordinator that is a replica reads its own copy before the entry leaves it, an answer
     * nothing can spoil (its own swap comes only after a remote ack, late enough to be spoilt).
     * When the quorum's answers leave fewer than a write quorum of replicas that answered from
     * before the entry, the swap also waits for the other replicas' answers, already on their way
     * (at most the call timeout, when one is down); if they do not make up the difference either,
     * {@code previous} may miss what was replaced.
     */
    public CompletableFuture<Swapped> swap(Entry entry, List<byte[]> peek) {
        return swaps.swap(entry, peek);
    }

    /**
     * The live entry of a key, merged from the read quorum (self first when a replica, then the
     * replicas membership believes up before the others, the closest first: {@link ReplicaOrder});
     * empty if absent or deleted. Replicas that answered with an older entry or none are
     * repaired in the background.
     */
    public CompletableFuture<Optional<Entry>> get(byte[] partitionKey, byte[] sortKey) {
        return reads.get(partitionKey, sortKey);
    }

    /**
     * Live entries of {@code partitionKey} from {@code fromSortKey} (inclusive), merged from the read
     * quorum's pages, with read repair of the keys a replica lacked or held older. Each replica sends
     * up to {@code limit} entries that are no deletions, and at most {@link QuorumRead#pageCap} entries in all
     * ({@link LocalTable#rangeCountingLive}), so deleted keys cost a round per cap of them, not per
     * limit. See {@link RangePage} for continuing.
     */
    public CompletableFuture<RangePage> range(byte[] partitionKey, byte[] fromSortKey, int limit) {
        return range(partitionKey, fromSortKey, null, limit);
    }

    /**
     * {@link #range(byte[], byte[], int)} of the sort keys below {@code untilSortKey} (exclusive; null:
     * to the end of the partition key): a reader that needs one object key's entries reads no others.
     */
    public CompletableFuture<RangePage> range(byte[] partitionKey, byte[] fromSortKey, byte @Nullable [] untilSortKey,
            int limit) {
        return reads.range(partitionKey, fromSortKey, untilSortKey, limit);
    }

    /** Deletes local tombstones older than the GC delay; returns how many. Blocks on disk. */
    public int purgeTombstones() {
        return local().purgeTombstonesBefore(clock().physicalMillis() - config().tombstoneGcDelay().toMillis());
    }

    /** Stops the local work executor; the RPC client and server and the local table belong to the caller. */
    @Override
    public void close() {
        replicas.close();
    }
}
