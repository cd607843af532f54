package dev.hangar.cluster;

import dev.hangar.blockstore.BlockId;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcPeer;
import dev.hangar.cluster.rpc.RpcServer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@link PeerReaders} over the cluster's authenticated RPC ({@link LeaseWire#HELD}): every other known node,
 * storage node or gateway, may serve GETs, so every one is asked, all at once.
 *
 * <p>The answering node takes a {@link ReaderLeases#barrier}, waits for its reads begun before it to hold
 * their leases, and names the asked blocks they hold. The freeing node asks only after the mutation that made
 * the blocks unreachable was acknowledged by a write quorum and its key read again from a read quorum
 * ({@code MetadataStore.pendingGarbage}); with intersecting quorums ({@code consistent}) a read that begins
 * after the barrier sees the new version and cannot find the blocks, so a block no peer names is read by no
 * one. (With a read quorum of one, a read of a stale replica may still find it: only the garbage grace
 * protects it then.)
 *
 * <p>A node that does not answer is reported {@linkplain Answer#unreachable unreachable}, and the reclaimer
 * frees nothing of the batch: what it holds is unknown. A node that is DOWN is not called, but is reported
 * unreachable all the same. Only a node that has been silent (answered none of this node's pings) for longer
 * than {@code silentNodeWait} counts as gone and is no longer waited for: otherwise a node that died, or was
 * removed from the cluster, would keep every chunk from being freed for ever.
 */
final class ClusterReaders implements PeerReaders {
    private static final Logger LOG = Logger.getLogger(ClusterReaders.class.getName());
    /** How long an asked node waits for its reads still looking up metadata before it declines to answer. */
    static final Duration PEER_READER_WAIT = Duration.ofSeconds(10);
    /** The asked node's wait, and a margin for the network. */
    static final Duration CALL_TIMEOUT = PEER_READER_WAIT.plusSeconds(5);

    private final NodeId self;
    private final RpcClient client;
    private final Supplier<Map<NodeId, PeerStatus>> statuses;
    private final Duration silentNodeWait;
    private final Clock clock;

    /**
     * @param statuses every known node as membership sees it (the control plane's {@code statuses})
     * @param silentNodeWait how long a node that answers no ping is still waited for
     */
    ClusterReaders(NodeId self, RpcClient client, Supplier<Map<NodeId, PeerStatus>> statuses,
            Duration silentNodeWait, Clock clock) {
        this.self = self;
        this.client = client;
        this.statuses = statuses;
        this.silentNodeWait = silentNodeWait;
        this.clock = clock;
    }

    /** Answers other nodes' questions about the blocks {@code leases} hold: the server side. */
    static void serve(RpcServer server, ReaderLeases leases) {
        server.register(LeaseWire.HELD, (from, payload) -> {
            List<BlockId> asked = LeaseWire.decode(payload);
            // As the local reclaimer does: a read that found one of these blocks began before this barrier.
            long barrier = leases.barrier();
            if (!leases.awaitReadersBefore(barrier, PEER_READER_WAIT)) {
                throw new IllegalStateException("reads begun " + PEER_READER_WAIT + " ago are still looking up metadata");
            }
            List<BlockId> held = asked.stream().filter(leases::leased).toList();
            return CompletableFuture.completedFuture(LeaseWire.encode(held));
        });
    }

    @Override
    public Answer held(Collection<BlockId> candidates) {
        Instant now = clock.instant();
        byte[] question = LeaseWire.encode(candidates);
        Map<PeerStatus, CompletableFuture<byte[]>> calls = new LinkedHashMap<>();
        List<NodeId> unreachable = new ArrayList<>();
        for (PeerStatus peer : statuses.get().values()) {
            if (peer.id().equals(self)) {
                continue;
            }
            if (peer.state() == PeerStatus.State.DOWN) {
                if (!gone(peer, now)) {
                    unreachable.add(peer.id());
                }
                continue;
            }
            calls.put(peer, client.call(new RpcPeer(peer.id(), peer.address()), LeaseWire.HELD, question,
                    CALL_TIMEOUT));
        }
        Set<BlockId> held = new HashSet<>();
        for (Map.Entry<PeerStatus, CompletableFuture<byte[]>> call : calls.entrySet()) {
            PeerStatus peer = call.getKey();
            try {
                held.addAll(LeaseWire.decode(call.getValue().join()));
            } catch (CompletionException | IllegalArgumentException e) {
                LOG.log(Level.FINE, "could not ask " + peer.id() + " which blocks its reads hold", e);
                if (!gone(peer, now)) {
                    unreachable.add(peer.id());
                }
            }
        }
        return new Answer(held, unreachable);
    }

    private boolean gone(PeerStatus peer, Instant now) {
        return Duration.between(peer.lastSeen(), now).compareTo(silentNodeWait) > 0;
    }
}
