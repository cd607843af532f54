package dev.hangar.cluster.table;

import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.membership.ReplicaOrder;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcPeer;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The replicas of a {@link ReplicatedTable} as one node reaches them: which nodes hold a partition
 * key and in which order to ask them, the calls to the others, this node's own copy and its clock,
 * and the read repair every read does. What the table's writes ({@link QuorumWrite}, {@link
 * SwapRound}) and reads ({@link QuorumRead}) share.
 */
final class Replicas implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ReplicatedTable.class.getName());

    private final TableConfig config;
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

    Replicas(TableConfig config, NodeId self, Supplier<ClusterLayout> layout, Supplier<Map<NodeId, PeerStatus>> statuses,
            RpcClient client, Function<NodeId, InetSocketAddress> addresses, LocalTable local, HybridLogicalClock clock) {
        this.config = config;
        this.self = self;
        this.layout = layout;
        this.statuses = statuses;
        this.client = client;
        this.addresses = addresses;
        this.local = local;
        this.clock = clock;
    }

    TableConfig config() {
        return config;
    }

    MergeRule rule() {
        return config.mergeRule();
    }

    NodeId self() {
        return self;
    }

    LocalTable local() {
        return local;
    }

    HybridLogicalClock clock() {
        return clock;
    }

    ExecutorService localExecutor() {
        return localExecutor;
    }

    RoundStats rounds() {
        return rounds;
    }

    long readRepairs() {
        return repairs.sum();
    }

    List<NodeId> replicasOf(byte[] partitionKey) {
        return layout.get().replicas(local.partitionOf(partitionKey));
    }

    // A read asks the head of this order at once, the next replica only after a call failed or timed out.
    List<NodeId> readOrder(byte[] partitionKey) {
        ClusterLayout current = layout.get();
        return ReplicaOrder.readOrder(current, self, current.replicas(local.partitionOf(partitionKey)), statuses.get());
    }

    CompletableFuture<byte[]> call(NodeId node, String operation, byte[] payload) {
        return client.call(new RpcPeer(node, addresses.apply(node)), config.method(operation), payload, config.timeout());
    }

    // A replica's answer with a timestamp too far ahead counts as a failed answer: the read takes
    // the others, and never repairs anyone with it nor moves this node's clock.
    Optional<Entry> checked(Optional<Entry> answer) {
        answer.ifPresent(entry -> clock.check(entry.timestamp()));
        return answer;
    }

    List<Entry> checked(List<Entry> answer) {
        answer.forEach(entry -> clock.check(entry.timestamp()));
        return answer;
    }

    Wire.SwapReply checked(Wire.SwapReply answer) {
        checked(answer.previous());
        answer.peeked().forEach(this::checked);
        return answer;
    }

    Entry mergeLocally(Entry entry) {
        clock.update(entry.timestamp());
        return local.merge(entry);
    }

    void repair(NodeId node, List<Entry> entries) {
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

    /** Stops the local work executor; the RPC client and server and the local table belong to the caller. */
    @Override
    public void close() {
        localExecutor.shutdown();
    }
}
