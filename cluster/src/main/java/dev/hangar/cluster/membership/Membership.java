package dev.hangar.cluster.membership;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcPeer;
import dev.hangar.cluster.rpc.RpcServer;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * Failure detection and peer discovery: pings every known peer once per interval and keeps each
 * peer's {@link PeerStatus}.
 *
 * <p>Every node pings every other, which is n² pings per interval: fine for the tens of nodes this
 * design targets, and it gives each node a first-hand view of each peer rather than rumours that
 * need a gossip protocol's extra rounds to settle. See the package documentation for the messages.
 */
public final class Membership implements AutoCloseable {
    /** The RPC method of pings. */
    public static final String PING = "membership.ping";

    private static final Logger LOG = Logger.getLogger(Membership.class.getName());

    private final PeerInfo self;
    private final List<InetSocketAddress> seeds;
    private final MembershipTiming timing;
    private final RpcClient client;
    private final LayoutGossip layouts;
    private final Clock clock;
    private final ScheduledExecutorService scheduler;
    private final Map<NodeId, PeerStatus> peers = new ConcurrentHashMap<>();
    private final Map<NodeId, PeerStatus> peersView = java.util.Collections.unmodifiableMap(peers);
    private final Set<NodeId> pinging = ConcurrentHashMap.newKeySet();
    // Seed addresses that turned out to be this node, so that it stops pinging itself.
    private final Set<String> ownSeeds = ConcurrentHashMap.newKeySet();
    private final List<MembershipListener> listeners = new CopyOnWriteArrayList<>();
    private final AtomicBoolean started = new AtomicBoolean();

    /**
     * Membership of node {@code self}, which must advertise the address its RPC server is reachable
     * at. Nothing happens until {@link #start}; call {@link #register} before that.
     */
    public Membership(PeerInfo self, List<InetSocketAddress> seeds, MembershipTiming timing, RpcClient client,
            LayoutGossip layouts) {
        this(self, seeds, timing, client, layouts, Clock.systemUTC());
    }

    Membership(PeerInfo self, List<InetSocketAddress> seeds, MembershipTiming timing, RpcClient client,
            LayoutGossip layouts, Clock clock) {
        if (!self.id().equals(client.self())) {
            throw new IllegalArgumentException("client is node " + client.self() + ", not " + self.id());
        }
        this.self = self;
        this.seeds = List.copyOf(seeds);
        this.timing = Objects.requireNonNull(timing);
        this.client = client;
        this.layouts = layouts;
        this.clock = clock;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("hangar-membership-" + self.id()).factory());
    }

    /** Answers other nodes' pings on {@code server}. */
    public void register(RpcServer server) {
        server.register(PING, (from, payload) -> CompletableFuture.completedFuture(answer(from, payload)));
    }

    /** Starts pinging: the seeds at once, then every known peer once per interval. */
    public void start() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("membership of " + self.id() + " already started");
        }
        long interval = timing.pingInterval().toNanos();
        scheduler.scheduleWithFixedDelay(this::roundSafely, 0, interval, TimeUnit.NANOSECONDS);
    }

    public void addListener(MembershipListener listener) {
        listeners.add(listener);
    }

    public NodeId selfId() {
        return self.id();
    }

    public PeerInfo self() {
        return self;
    }

    /**
     * The other known nodes as they are now, a live read-only view without a copy: for the reads that order
     * replicas on every request ({@link ReplicaOrder}), where {@link #statuses}'s snapshot would be work per call.
     */
    public Map<NodeId, PeerStatus> peersView() {
        return peersView;
    }

    /** Every known node, this one included (always UP), as an immutable snapshot. */
    public Map<NodeId, PeerStatus> statuses() {
        Map<NodeId, PeerStatus> snapshot = new HashMap<>(peers);
        snapshot.put(self.id(), new PeerStatus(self.id(), self.zone(), self.capacity(), self.address(),
                PeerStatus.State.UP, clock.instant(), layouts.localDigest().version()));
        return Map.copyOf(snapshot);
    }

    /** The RPC address of a known peer, for other components' calls. */
    public @Nullable RpcPeer peer(NodeId id) {
        PeerStatus status = peers.get(id);
        return status == null ? null : new RpcPeer(id, status.address());
    }

    /** Stops pinging. Peers see this node go SUSPECT, then DOWN. */
    @Override
    public void close() {
        scheduler.shutdownNow();
    }

    private void roundSafely() {
        try {
            round();
        } catch (RuntimeException e) {
            // A failed round must not cancel the schedule, which would silently stop failure detection.
            LOG.log(Level.WARNING, "membership round failed on " + self.id(), e);
        }
    }

    private void round() {
        Set<String> known = new HashSet<>();
        for (PeerStatus peer : peers.values()) {
            known.add(key(peer.address()));
            ping(new RpcPeer(peer.id(), peer.address()));
        }
        for (InetSocketAddress seed : seeds) {
            String key = key(seed);
            if (!known.contains(key) && !ownSeeds.contains(key) && !key.equals(key(self.address()))) {
                // A seed's id is unknown until it answers; the placeholder only names the call.
                ping(RpcPeer.seed(seed));
            }
        }
        Instant now = clock.instant();
        for (PeerStatus peer : peers.values()) {
            Duration silent = Duration.between(peer.lastSeen(), now);
            if (silent.compareTo(timing.downTimeout()) > 0) {
                update(peer.id(), p -> p.with(PeerStatus.State.DOWN, p.lastSeen()));
            } else if (silent.compareTo(timing.suspectTimeout()) > 0) {
                update(peer.id(), p -> p.state() == PeerStatus.State.UP ? p.with(PeerStatus.State.SUSPECT, p.lastSeen()) : p);
            }
        }
        layouts.round(statuses());
    }

    private void ping(RpcPeer peer) {
        // One ping per peer at a time: a peer that does not answer must not pile up calls.
        if (!pinging.add(peer.id())) {
            return;
        }
        byte[] request = message().encode();
        client.call(peer, PING, request, timing.pingInterval())
                .whenCompleteAsync((answer, failure) -> {
                    pinging.remove(peer.id());
                    if (failure == null) {
                        answered(peer, answer);
                    }
                }, scheduler);
    }

    private void answered(RpcPeer called, byte[] answer) {
        GossipMessage message;
        try {
            message = GossipMessage.decode(answer);
        } catch (IllegalArgumentException e) {
            LOG.warning(() -> "ignoring a bad ping answer from " + called.id() + ": " + e.getMessage());
            return;
        }
        PeerInfo sender = message.sender();
        if (sender.id().equals(self.id())) {
            ownSeeds.add(key(called.address()));
            return;
        }
        try {
            layouts.heardClusterId(sender.id(), message.clusterId());
        } catch (ClusterMismatchException e) {
            // A node of another cluster that knows our secret: it must not become a peer.
            LOG.warning(() -> "ignoring the ping answer of " + called.address() + ": " + e.getMessage());
            return;
        }
        Instant now = clock.instant();
        // The answer comes from the node itself: its own word on its address beats anyone's gossip.
        update(sender.id(), p -> (p == null ? fresh(sender, message.layout().version(), now) : p)
                .with(sender, message.layout().version())
                .with(PeerStatus.State.UP, now));
        learn(message);
    }

    private byte[] answer(NodeId from, byte[] payload) {
        GossipMessage message = GossipMessage.decode(payload);
        PeerInfo sender = message.sender();
        if (!sender.id().equals(from)) {
            throw new IllegalArgumentException("ping from " + from + " claims to come from " + sender.id());
        }
        if (!sender.id().equals(self.id())) {
            try {
                layouts.heardClusterId(from, message.clusterId());
            } catch (ClusterMismatchException e) {
                LOG.warning(() -> "refusing the ping of " + from + ": " + e.getMessage());
                throw e;
            }
            // A ping proves only that the sender can reach us, not that we can reach it: take its
            // details, but leave its state to our own pings.
            update(sender.id(), p -> p == null
                    ? fresh(sender, message.layout().version(), clock.instant())
                    : p.with(sender, message.layout().version()));
            learn(message);
        }
        return message().encode();
    }

    // Peers first: a layout that names a node which joined through the sender must find it known.
    private void learn(GossipMessage message) {
        Instant now = clock.instant();
        for (PeerInfo peer : message.peers()) {
            if (!peer.id().equals(self.id()) && !peers.containsKey(peer.id())) {
                // Second-hand: known, but SUSPECT until it answers us.
                update(peer.id(), p -> p != null ? p : fresh(peer, 0, now));
            }
        }
        LayoutDigest digest = message.layout();
        if (!digest.equals(layouts.localDigest())) {
            Set<NodeId> members = new HashSet<>(peers.keySet());
            members.add(self.id());
            layouts.announced(new RpcPeer(message.sender().id(), message.sender().address()), digest, members);
        }
    }

    private static PeerStatus fresh(PeerInfo info, long layoutVersion, Instant now) {
        return new PeerStatus(info.id(), info.zone(), info.capacity(), info.address(), PeerStatus.State.SUSPECT,
                now, layoutVersion);
    }

    private GossipMessage message() {
        List<PeerInfo> known = new ArrayList<>(peers.size());
        for (PeerStatus peer : peers.values()) {
            known.add(peer.info());
        }
        return new GossipMessage(self, layouts.clusterId(), layouts.localDigest(), known);
    }

    private interface Change {
        PeerStatus apply(@Nullable PeerStatus current);
    }

    private void update(NodeId id, Change change) {
        @Nullable PeerStatus[] before = new PeerStatus[1];
        PeerStatus after = peers.compute(id, (key, current) -> {
            before[0] = current;
            return change.apply(current);
        });
        PeerStatus previous = before[0];
        if (after != null && (previous == null || !previous.sameAs(after))) {
            if (previous == null || previous.state() != after.state()) {
                // An operator wants to know when a peer goes down or comes back; a missed ping (SUSPECT)
                // and its recovery are routine and stay at FINE.
                boolean notable = after.state() == PeerStatus.State.DOWN
                        || (after.state() == PeerStatus.State.UP
                                && (previous == null || previous.state() == PeerStatus.State.DOWN));
                LOG.log(notable ? Level.INFO : Level.FINE, () -> "peer " + id + " at " + key(after.address()) + " is "
                        + after.state() + (previous == null ? "" : " (was " + previous.state() + ")"));
            }
            for (MembershipListener listener : listeners) {
                try {
                    listener.changed(previous, after);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "membership listener failed", e);
                }
            }
        }
    }

    // Addresses compare as text: a seed given as a name and the same node announcing itself
    // resolved must still be recognised, as far as the text allows.
    private static String key(InetSocketAddress address) {
        return address.getHostString() + ":" + address.getPort();
    }
}
