package dev.hangar.cluster.table;

import dev.hangar.cluster.RoundTrips;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.membership.ReplicaOrder;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcPeer;
import dev.hangar.cluster.rpc.RpcServer;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
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
 */
public final class ReplicatedTable implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ReplicatedTable.class.getName());
    private static final byte[] EMPTY = new byte[0];

    private final TableConfig config;
    private final MergeRule rule;
    private final NodeId self;
    private final Supplier<ClusterLayout> layout;
    private final Supplier<Map<NodeId, PeerStatus>> statuses;
    private final RpcClient client;
    private final Function<NodeId, InetSocketAddress> addresses;
    private final LocalTable local;
    private final HybridLogicalClock clock;
    // Local RocksDB work runs here, never on the I/O thread that completed an RPC.
    private final ExecutorService localExecutor = Executors.newVirtualThreadPerTaskExecutor();
    private final RoundStats rounds = new RoundStats();
    private final LongAdder repairs = new LongAdder();

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
        this.config = config;
        this.rule = config.mergeRule();
        this.self = self;
        this.layout = layout;
        this.statuses = statuses;
        this.client = client;
        this.addresses = addresses;
        this.local = local;
        this.clock = clock;
        // Server handlers run on virtual threads: blocking on RocksDB there is fine.
        server.register(config.method("merge"), (from, payload) -> {
            List<Entry> entries = Wire.entries(payload);
            // All or nothing: a batch with one timestamp from the far future is refused whole.
            for (Entry entry : entries) {
                clock.check(entry.timestamp());
            }
            for (Entry entry : entries) {
                mergeLocally(entry);
            }
            return CompletableFuture.completedFuture(EMPTY);
        });
        server.register(config.method("swap"), (from, payload) -> {
            Wire.SwapRequest request = Wire.swapRequest(payload);
            clock.update(request.entry().timestamp());
            return CompletableFuture.completedFuture(Wire.swapReply(swapLocally(request.entry(), request.peek())));
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
        return config;
    }

    public NodeId self() {
        return self;
    }

    /** This node's replica. */
    public LocalTable local() {
        return local;
    }

    public HybridLogicalClock clock() {
        return clock;
    }

    /** Sequential inter-node rounds per operation ({@code put}, {@code get}, {@code range}). */
    public RoundStats rounds() {
        return rounds;
    }

    /** Entries sent to replicas found stale by reads, so far. */
    public long readRepairs() {
        return repairs.sum();
    }

    /** Writes {@code value} under a fresh timestamp of this node's clock. */
    public CompletableFuture<Entry> put(byte[] partitionKey, byte[] sortKey, byte[] value) {
        return put(Entry.of(partitionKey, sortKey, value, clock.now()));
    }

    /** Deletes by writing a tombstone under a fresh timestamp. */
    public CompletableFuture<Entry> delete(byte[] partitionKey, byte[] sortKey) {
        return put(Entry.tombstone(partitionKey, sortKey, clock.now()));
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
        return replicate(List.of(entry), false, List.of(), RoundTrips.current()).thenApply(done -> entry);
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
        List<CompletableFuture<?>> writes = new ArrayList<>();
        for (List<Entry> group : byPartitionKey.values()) {
            RoundTrips.Tally tally = new RoundTrips.Tally();
            tallies.add(tally);
            writes.add(replicate(group, false, List.of(), tally));
        }
        // Parallel writes are one round: the caller waits for the slowest, not for their sum.
        return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).thenRun(() -> caller.addMetadata(
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
        RoundTrips.Tally tally = RoundTrips.current();
        // Null when this node is no replica, or its copy could not be read: then it answers nothing.
        CompletableFuture<@Nullable Optional<Entry>> ownCopy = replicasOf(entry.partitionKey()).contains(self)
                ? CompletableFuture.supplyAsync(() -> local.get(entry.partitionKey(), entry.sortKey()), localExecutor)
                        .exceptionally(failure -> null)
                : CompletableFuture.completedFuture(null);
        return ownCopy.thenCompose(held -> replicate(List.of(entry), true, peek, tally).thenCompose(replicated -> {
            Map<NodeId, Wire.SwapReply> answers = new LinkedHashMap<>(replicated.answers());
            int needed = Math.min(config.writeQuorum(), replicated.replicas().size());
            if (answeredFromBefore(entry, answers, held != null) >= needed) {
                return CompletableFuture.completedFuture(swapped(entry, held, answers.values(), peek));
            }
            List<CompletableFuture<Void>> others = new ArrayList<>();
            replicated.calls().forEach((node, call) -> {
                if (!answers.containsKey(node)) {
                    others.add(call.handle((answer, failure) -> {
                        if (failure == null) {
                            synchronized (answers) {
                                answers.put(node, answer);
                            }
                        }
                        return null;
                    }));
                }
            });
            return CompletableFuture.allOf(others.toArray(CompletableFuture[]::new)).thenApply(done -> {
                synchronized (answers) {
                    return swapped(entry, held, answers.values(), peek);
                }
            });
        }));
    }

    /**
     * How many replicas answered from a state before {@code entry}: this node by its own copy, read
     * first (or else by its swap's answer, as any other replica).
     */
    private int answeredFromBefore(Entry entry, Map<NodeId, Wire.SwapReply> answers, boolean ownCopyRead) {
        int count = ownCopyRead ? 1 : 0;
        for (Map.Entry<NodeId, Wire.SwapReply> answer : answers.entrySet()) {
            boolean counted = ownCopyRead && answer.getKey().equals(self);
            if (!counted && !heldAlready(entry, answer.getValue())) {
                count++;
            }
        }
        return count;
    }

    private static boolean heldAlready(Entry entry, Wire.SwapReply answer) {
        return answer.previous().isPresent() && answer.previous().get().equals(entry);
    }

    private Swapped swapped(Entry entry, @Nullable Optional<Entry> ownCopy, Collection<Wire.SwapReply> answers,
            List<byte[]> peek) {
        Entry previous = ownCopy == null ? null : ownCopy.orElse(null);
        List<Entry> peeked = new ArrayList<>(Collections.nCopies(peek.size(), (Entry) null));
        for (Wire.SwapReply answer : answers) {
            if (!heldAlready(entry, answer)) {
                previous = rule.winner(previous, answer.previous().orElse(null));
            }
            for (int i = 0; i < peek.size() && i < answer.peeked().size(); i++) {
                peeked.set(i, rule.winner(peeked.get(i), answer.peeked().get(i).orElse(null)));
            }
        }
        return new Swapped(entry, Optional.ofNullable(previous), peeked.stream().map(Optional::ofNullable).toList());
    }

    /**
     * What {@link #replicate} got: the replicas of the partition key, the answers that made the
     * quorum, and the call to every replica (this node's local write included), the others still
     * running or done.
     */
    private record Replicated(List<NodeId> replicas, Map<NodeId, Wire.SwapReply> answers,
            Map<NodeId, CompletableFuture<Wire.SwapReply>> calls) {}

    /**
     * Writes {@code entries}, all of one partition key, to its replicas (see {@link #put}); with
     * {@code swap}, the one entry is swapped in and each acknowledging replica answers what it held
     * before and at the {@code peek} keys. Completes with those answers (empty ones for a merge),
     * once the quorum acknowledged and this node's own write, if it is a replica, is done.
     */
    private CompletableFuture<Replicated> replicate(List<Entry> entries, boolean swap,
            List<byte[]> peek, RoundTrips.Tally tally) {
        entries.forEach(entry -> clock.update(entry.timestamp()));
        byte[] partitionKey = entries.getFirst().partitionKey();
        List<NodeId> replicas = replicasOf(partitionKey);
        byte[] payload = swap ? Wire.swapRequest(entries.getFirst(), peek) : Wire.entries(entries);
        String method = swap ? "swap" : "merge";
        Wire.SwapReply none = new Wire.SwapReply(Optional.empty(), List.of());
        boolean selfIsReplica = replicas.contains(self);
        int remoteAcksFirst = selfIsReplica ? Math.max(0, Math.min(config.writeQuorum(), replicas.size()) - 1) : 0;
        AtomicInteger remoteAcks = new AtomicInteger();
        CompletableFuture<Void> enoughRemote = new CompletableFuture<>();
        if (remoteAcksFirst == 0) {
            enoughRemote.complete(null);
        }
        CompletableFuture<Wire.SwapReply> localWrite = selfIsReplica
                ? enoughRemote.thenApplyAsync(ready -> {
                    entries.forEach(entry -> clock.update(entry.timestamp()));
                    if (swap) {
                        return swapLocally(entries.getFirst(), peek);
                    }
                    entries.forEach(local::merge);
                    return none;
                }, localExecutor)
                : CompletableFuture.completedFuture(none);
        Map<NodeId, CompletableFuture<Wire.SwapReply>> calls = new ConcurrentHashMap<>();
        CompletableFuture<Map<NodeId, Wire.SwapReply>> quorum = QuorumCall.<Wire.SwapReply>run("put", replicas,
                        config.writeQuorum(), replicas.size(), self, node -> {
                            CompletableFuture<Wire.SwapReply> answer = node.equals(self) ? localWrite
                                    : call(node, method, payload).thenApply(reply -> {
                                        if (remoteAcks.incrementAndGet() >= remoteAcksFirst) {
                                            enoughRemote.complete(null);
                                        }
                                        return swap ? checked(Wire.swapReply(reply)) : none;
                                    });
                            calls.put(node, answer);
                            return answer;
                        })
                .thenApply(answers -> {
                    rounds.record("put", answers.rounds());
                    tally.addMetadata(answers.rounds());
                    return answers.byNode();
                });
        // thenCompose, not thenCombine: a failed quorum fails the put at once, while the local write,
        // which waits for remote acks that never came, never completes. A failed local write is one
        // missing ack like any other: the quorum decides, not this node.
        return quorum.thenCompose(answers -> localWrite.exceptionally(failure -> none)
                .thenApply(local -> new Replicated(replicas, answers, calls)));
    }

    private Wire.SwapReply swapLocally(Entry entry, List<byte[]> peek) {
        Optional<Entry> previous = local.swap(entry);
        List<Optional<Entry>> peeked = new ArrayList<>(peek.size());
        for (byte[] sortKey : peek) {
            peeked.add(local.get(entry.partitionKey(), sortKey));
        }
        return new Wire.SwapReply(previous, peeked);
    }

    /**
     * The live entry of a key, merged from the read quorum (self first when a replica, then the
     * replicas membership believes up before the others, the closest first: {@link ReplicaOrder});
     * empty if absent or deleted. Replicas that answered with an older entry or none are
     * repaired in the background.
     */
    public CompletableFuture<Optional<Entry>> get(byte[] partitionKey, byte[] sortKey) {
        RoundTrips.Tally tally = RoundTrips.current();
        List<NodeId> replicas = readOrder(partitionKey);
        byte[] payload = Wire.getRequest(partitionKey, sortKey);
        return QuorumCall.<Optional<Entry>>run("get", replicas, config.readQuorum(), config.readQuorum(), self, node ->
                        node.equals(self)
                                ? CompletableFuture.supplyAsync(() -> local.get(partitionKey, sortKey), localExecutor)
                                : call(node, "get", payload).thenApply(reply -> checked(Wire.optionalEntry(reply))))
                .thenApply(answers -> {
                    rounds.record("get", answers.rounds());
                    tally.addMetadata(answers.rounds());
                    Entry winner = null;
                    for (Optional<Entry> answer : answers.byNode().values()) {
                        winner = rule.winner(winner, answer.orElse(null));
                    }
                    if (winner == null) {
                        return Optional.<Entry>empty();
                    }
                    clock.update(winner.timestamp());
                    for (Map.Entry<NodeId, Optional<Entry>> answer : answers.byNode().entrySet()) {
                        if (!answer.getValue().equals(Optional.of(winner))) {
                            repair(answer.getKey(), List.of(winner));
                        }
                    }
                    return winner.isTombstone() ? Optional.<Entry>empty() : Optional.of(winner);
                });
    }

    /**
     * Live entries of {@code partitionKey} from {@code fromSortKey} (inclusive), merged from the read
     * quorum's pages, with read repair of the keys a replica lacked or held older. Each replica sends
     * up to {@code limit} entries that are no deletions, and at most {@link #pageCap} entries in all
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
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        RoundTrips.Tally tally = RoundTrips.current();
        List<NodeId> replicas = readOrder(partitionKey);
        int cap = pageCap(limit);
        byte[] payload = Wire.liveRangeRequest(partitionKey, fromSortKey, untilSortKey, limit, cap);
        return QuorumCall.<List<Entry>>run("range", replicas, config.readQuorum(), config.readQuorum(), self, node ->
                        node.equals(self)
                                ? CompletableFuture.supplyAsync(() -> local.rangeCountingLive(partitionKey, fromSortKey,
                                        untilSortKey, limit, cap), localExecutor)
                                : call(node, "range.live", payload).thenApply(reply -> checked(Wire.entries(reply))))
                .thenApply(answers -> {
                    rounds.record("range", answers.rounds());
                    tally.addMetadata(answers.rounds());
                    return mergePages(answers.byNode(), limit, cap);
                });
    }

    /** The most entries, deletions included, a replica sends for a range page of {@code limit}. */
    static int pageCap(int limit) {
        return Math.max(limit, Math.min(10 * Math.min(limit, 1_000), 10_000));
    }

    // Only keys up to the smallest last key of a full page are known to every answering replica:
    // beyond it a replica may hold a newer entry or tombstone it did not send. A page is full when
    // the replica stopped at its limit or its cap (LocalTable.rangeCountingLive), not at the end.
    private RangePage mergePages(Map<NodeId, List<Entry>> pages, int limit, int cap) {
        byte[] cutoff = null;
        for (List<Entry> page : pages.values()) {
            if (page.size() >= cap || page.stream().filter(entry -> !rule.isDeletion(entry)).count() >= limit) {
                byte[] last = page.getLast().sortKey();
                if (cutoff == null || Arrays.compareUnsigned(last, cutoff) < 0) {
                    cutoff = last;
                }
            }
        }
        Comparator<byte[]> bytewise = Arrays::compareUnsigned;
        TreeMap<byte[], Entry> merged = new TreeMap<>(bytewise);
        for (List<Entry> page : pages.values()) {
            for (Entry entry : page) {
                if (cutoff == null || Arrays.compareUnsigned(entry.sortKey(), cutoff) <= 0) {
                    merged.merge(entry.sortKey(), entry, rule::merge);
                }
            }
        }
        for (Map.Entry<NodeId, List<Entry>> page : pages.entrySet()) {
            TreeMap<byte[], Entry> held = new TreeMap<>(bytewise);
            page.getValue().forEach(entry -> held.put(entry.sortKey(), entry));
            List<Entry> stale = new ArrayList<>();
            for (Entry winner : merged.values()) {
                if (!winner.equals(held.get(winner.sortKey()))) {
                    stale.add(winner);
                }
            }
            if (!stale.isEmpty()) {
                repair(page.getKey(), stale);
            }
        }
        // As a get does: a later write of this node orders after what this read saw.
        merged.values().stream().map(Entry::timestamp).max(Comparator.naturalOrder()).ifPresent(clock::update);
        List<Entry> live = merged.values().stream().filter(e -> !e.isTombstone()).toList();
        // The smallest key after the cutoff: the cutoff followed by a zero byte.
        byte[] next = cutoff == null ? null : Arrays.copyOf(cutoff, cutoff.length + 1);
        return new RangePage(live, next);
    }

    /** Deletes local tombstones older than the GC delay; returns how many. Blocks on disk. */
    public int purgeTombstones() {
        return local.purgeTombstonesBefore(clock.physicalMillis() - config.tombstoneGcDelay().toMillis());
    }

    // A replica's answer with a timestamp too far ahead counts as a failed answer: the read takes
    // the others, and never repairs anyone with it nor moves this node's clock.
    private Optional<Entry> checked(Optional<Entry> answer) {
        answer.ifPresent(entry -> clock.check(entry.timestamp()));
        return answer;
    }

    private List<Entry> checked(List<Entry> answer) {
        answer.forEach(entry -> clock.check(entry.timestamp()));
        return answer;
    }

    private Wire.SwapReply checked(Wire.SwapReply answer) {
        checked(answer.previous());
        answer.peeked().forEach(this::checked);
        return answer;
    }

    private List<NodeId> replicasOf(byte[] partitionKey) {
        return layout.get().replicas(local.partitionOf(partitionKey));
    }

    // A read asks the head of this order at once, the next replica only after a call failed or timed out.
    private List<NodeId> readOrder(byte[] partitionKey) {
        ClusterLayout current = layout.get();
        return ReplicaOrder.readOrder(current, self, current.replicas(local.partitionOf(partitionKey)), statuses.get());
    }

    private Entry mergeLocally(Entry entry) {
        clock.update(entry.timestamp());
        return local.merge(entry);
    }

    private void repair(NodeId node, List<Entry> entries) {
        repairs.add(entries.size());
        CompletableFuture<?> sent = node.equals(self)
                ? CompletableFuture.runAsync(() -> entries.forEach(this::mergeLocally), localExecutor)
                : call(node, "merge", Wire.entries(entries));
        sent.whenComplete((r, failure) -> {
            if (failure != null) {
                // Anti-entropy will catch up; a failed repair is no error for the reader.
                LOG.log(Level.FINE, "read repair of " + node + " failed", failure);
            }
        });
    }

    private CompletableFuture<byte[]> call(NodeId node, String operation, byte[] payload) {
        return client.call(new RpcPeer(node, addresses.apply(node)), config.method(operation), payload, config.timeout());
    }

    /** Stops the local work executor; the RPC client and server and the local table belong to the caller. */
    @Override
    public void close() {
        localExecutor.shutdown();
    }
}
