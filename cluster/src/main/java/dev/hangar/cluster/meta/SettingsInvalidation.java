package dev.hangar.cluster.meta;

import dev.hangar.cluster.RoundTrips;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import dev.hangar.cluster.rpc.RpcBroadcast;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcServer;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * Drops the copies that every node of the layout keeps of a settings record (bucket record,
 * bucket configuration, access key: {@link SettingsCache}) when one node changes it, so that the
 * change applies at once on every node rather than when their copies expire.
 *
 * <p>The writing node sends {@value #METHOD} to every other node of the layout, gateways included,
 * once the write is acknowledged by its quorum, and waits for their answers, at most {@link
 * #DEFAULT_WAIT} (one round, in parallel). A node that answered has dropped its copy; its next read
 * of the record asks a read quorum, which meets the write quorum, so it sees the change. A node
 * that does not answer in time (down, partitioned, overloaded) is not waited for further: it
 * serves its copy until that expires, as it did before this existed. The write itself has already
 * succeeded; the wait only bounds how long its caller may take to learn that every node knows.
 *
 * <p>Requests come only over the RPC server's authenticated connections (the cluster secret), and
 * only ever make a node forget: a forged one would cost at most a quorum read.
 */
public final class SettingsInvalidation {
    private static final Logger LOG = Logger.getLogger(SettingsInvalidation.class.getName());

    /** The RPC method a node answers by dropping its copies. */
    public static final String METHOD = "settings.forget";
    /** How long a change waits for the other nodes to confirm they dropped their copies. */
    public static final Duration DEFAULT_WAIT = Duration.ofSeconds(1);

    private static final byte FORMAT = 1;
    private static final byte RECORD = 1;
    private static final byte PARTITION = 2;
    private static final byte[] EMPTY = new byte[0];

    private final @Nullable Peers peers;
    private final Set<SettingsCache> caches = new CopyOnWriteArraySet<>();

    private record Peers(NodeId self, Supplier<ClusterLayout> layout, RpcClient client,
            Function<NodeId, InetSocketAddress> addresses, Duration timeout) {}

    private SettingsInvalidation(@Nullable Peers peers) {
        this.peers = peers;
    }

    /**
     * Invalidation across the nodes of {@code layout}: registers {@value #METHOD} on {@code server}
     * (before it starts, so that the first request finds it) and sends it with {@code client}.
     */
    public SettingsInvalidation(NodeId self, Supplier<ClusterLayout> layout, RpcClient client, RpcServer server,
            Function<NodeId, InetSocketAddress> addresses, Duration wait) {
        this(new Peers(self, layout, client, addresses, wait));
        server.register(METHOD, (from, payload) -> {
            forgetLocally(payload);
            return CompletableFuture.completedFuture(EMPTY);
        });
    }

    /** Invalidation of this node's own copies only: for a store that no other node caches for. */
    public static SettingsInvalidation local() {
        return new SettingsInvalidation(null);
    }

    /** Makes {@code cache} forget what this node is told to, until the returned handle is closed. */
    Served serve(SettingsCache cache) {
        caches.add(cache);
        return new Served(cache);
    }

    /**
     * One cache served: what its store calls after it changed a record. The change is forgotten by
     * every cache of this node (a node may hold more than one store over its table), then by the others.
     */
    final class Served implements AutoCloseable {
        private final SettingsCache cache;

        private Served(SettingsCache cache) {
            this.cache = cache;
        }

        /**
         * The record was written (or a write of it failed, and may have landed on some replicas):
         * forgets it here and on every other node, waiting for them as the class says. Records no
         * cache holds cost nothing.
         */
        void changed(byte[] partitionKey, byte[] sortKey) {
            caches.forEach(served -> served.forget(partitionKey, sortKey));
            if (SettingsCache.holds(partitionKey)) {
                tellOthers(encode(RECORD, partitionKey, sortKey));
            }
        }

        /** Every record of {@code partitionKey} may have changed: forgets them here and everywhere. */
        void changedPartition(byte[] partitionKey) {
            caches.forEach(served -> served.forgetPartition(partitionKey));
            if (SettingsCache.holds(partitionKey)) {
                tellOthers(encode(PARTITION, partitionKey, EMPTY));
            }
        }

        @Override
        public void close() {
            caches.remove(cache);
        }
    }

    private void tellOthers(byte[] payload) {
        Peers to = peers;
        if (to == null) {
            return;
        }
        RoundTrips.Tally tally = RoundTrips.current();
        List<NodeId> others = to.layout().get().roles().stream().map(NodeRole::id)
                .filter(node -> !node.equals(to.self())).toList();
        if (others.isEmpty()) {
            return;
        }
        tally.addMetadata(1);
        // A node that does not confirm is no failure of the write; see the class comment.
        RpcBroadcast.callAndAwait(to.client(), others, to.addresses(), METHOD, payload, to.timeout(),
                (node, failure) -> LOG.log(Level.FINE, () -> node + " did not confirm a settings change; it may"
                        + " serve its cached copy until that expires: " + failure));
    }

    private void forgetLocally(byte[] payload) {
        ByteBuffer in = ByteBuffer.wrap(payload);
        byte format = in.get();
        if (format != FORMAT) {
            throw new IllegalArgumentException("unknown settings invalidation format " + format);
        }
        byte kind = in.get();
        byte[] partitionKey = bytes(in);
        switch (kind) {
            case RECORD -> {
                byte[] sortKey = bytes(in);
                caches.forEach(cache -> cache.forget(partitionKey, sortKey));
            }
            case PARTITION -> caches.forEach(cache -> cache.forgetPartition(partitionKey));
            default -> throw new IllegalArgumentException("unknown settings invalidation kind " + kind);
        }
    }

    // Format byte, kind, then each key as a 4-byte length and its bytes.
    private static byte[] encode(byte kind, byte[] partitionKey, byte[] sortKey) {
        ByteBuffer out = ByteBuffer.allocate(2 + 4 + partitionKey.length + 4 + sortKey.length);
        out.put(FORMAT).put(kind).putInt(partitionKey.length).put(partitionKey).putInt(sortKey.length).put(sortKey);
        return out.array();
    }

    private static byte[] bytes(ByteBuffer in) {
        int length = in.getInt();
        if (length < 0 || length > in.remaining()) {
            throw new IllegalArgumentException("malformed settings invalidation");
        }
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }
}
