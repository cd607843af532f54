package dev.hangar.cluster.membership;

import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.LayoutCodec;
import dev.hangar.cluster.layout.LayoutPlanner;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcPeer;
import dev.hangar.cluster.rpc.RpcServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * This node's current {@link ClusterLayout}, the role changes staged for the next one, and the
 * convergence of all nodes on the newest layout.
 *
 * <p>The layout is kept in {@code layout} in the data directory (in {@link LayoutCodec}'s form) and
 * written before it is announced, so that a node never announces what a crash could make it forget.
 * Staged changes live in memory only: they are an operator's draft, cheap to stage again.
 *
 * <p>With {@code bootstrapExpect = N}, a storage node with no layout yet (version 0) that sees N
 * storage nodes UP, itself included, and has the smallest id among them, plans and applies the first
 * layout from the roles of every node UP (gateways included). A gateway never bootstraps. Should two nodes still both do it (each missing the other), their
 * two version-1 layouts differ in hash; without cluster ids everyone would converge on one of them,
 * but each of the two nodes has made a cluster id of its own, so they form two clusters that refuse
 * each other (see {@link ClusterIdentity}). Starting exactly the expected storage nodes, as the docs
 * say, rules this out: only the smallest id can then see N nodes UP with none smaller.
 *
 * <p>The node that forms a first layout (by bootstrap or by an apply) also makes the cluster id,
 * kept in {@link ClusterIdentity}; others take it from gossip ({@link #heardClusterId}).
 *
 * <p>Layouts from other nodes are fetched only from authenticated peers (every RPC connection is),
 * must be the layout the peer announced, and must pass {@link LayoutCheck}; a rejected one is logged
 * and not fetched again for {@link #REJECTED_RETRY}.
 */
public final class LayoutManager implements LayoutGossip, AutoCloseable {
    /** The RPC method that returns the sender's current layout; the request payload is empty. */
    public static final String FETCH = "membership.layout";
    /** The file, in the data directory, that holds the layout. */
    public static final String FILE = "layout";

    private static final Logger LOG = Logger.getLogger(LayoutManager.class.getName());
    private static final Duration FETCH_TIMEOUT = Duration.ofSeconds(5);
    /** A rejected layout may become acceptable (a node it names becomes known), but must not flood the log. */
    static final Duration REJECTED_RETRY = Duration.ofSeconds(10);

    private final Path file;
    private final NodeId self;
    private final int replicationFactor;
    private final int bootstrapExpect;
    private final RpcClient client;
    private final ClusterIdentity clusterIds;
    private final ExecutorService adopter;
    private final Set<LayoutDigest> fetching = ConcurrentHashMap.newKeySet();
    private final Map<LayoutDigest, Long> rejected = new ConcurrentHashMap<>();
    private final List<Consumer<ClusterLayout>> listeners = new CopyOnWriteArrayList<>();
    private final Map<NodeId, NodeRole> stagedRoles = new TreeMap<>();
    private final Set<NodeId> stagedRemovals = new HashSet<>();
    private volatile ClusterLayout current;
    private volatile LayoutDigest digest;

    /**
     * Loads the layout kept in {@code dataDir}, or starts from the empty one (version 0). New layouts
     * are planned with {@code replicationFactor}; {@code client} fetches others' layouts; {@code
     * clusterIds} is the cluster id kept beside the layout.
     */
    public LayoutManager(Path dataDir, NodeId self, int replicationFactor, int bootstrapExpect, RpcClient client,
            ClusterIdentity clusterIds) {
        if (bootstrapExpect < 0) {
            throw new IllegalArgumentException("bootstrap-expect must not be negative: " + bootstrapExpect);
        }
        this.file = dataDir.resolve(FILE);
        this.self = self;
        this.replicationFactor = replicationFactor;
        this.bootstrapExpect = bootstrapExpect;
        this.client = client;
        this.clusterIds = clusterIds;
        this.current = load(file, replicationFactor);
        this.digest = LayoutDigest.of(current);
        // One thread: adoptions happen one at a time, and their disk writes stay off the I/O threads.
        this.adopter = Executors.newSingleThreadExecutor(
                Thread.ofPlatform().daemon().name("hangar-layout-" + self).factory());
    }

    /** Serves this node's layout to the nodes that fetch it. */
    public void register(RpcServer server) {
        server.register(FETCH, (from, payload) -> CompletableFuture.completedFuture(LayoutCodec.encode(current)));
    }

    public ClusterLayout current() {
        return current;
    }

    /** Called with every new layout this node applies or adopts, on the thread that installed it. */
    public void addListener(Consumer<ClusterLayout> listener) {
        listeners.add(listener);
    }

    /** Stages a new node or a changed role; replaces an earlier staged change of the same node. */
    public synchronized void stage(NodeRole role) {
        stagedRemovals.remove(role.id());
        stagedRoles.put(role.id(), role);
    }

    /** Stages taking a node out of the layout. */
    public synchronized void stageRemoval(NodeId id) {
        stagedRoles.remove(id);
        stagedRemovals.add(id);
    }

    public synchronized StagedChanges staged() {
        return new StagedChanges(stagedRoles, stagedRemovals);
    }

    public synchronized void clearStaged() {
        stagedRoles.clear();
        stagedRemovals.clear();
    }

    /**
     * Plans a layout from the current one with the staged changes, as version {@code expectedVersion
     * + 1}, keeps it and makes it current; other nodes fetch it when they next hear of it.
     *
     * @throws StaleLayoutException if {@code expectedVersion} is not the current version
     * @throws IllegalStateException if nothing is staged or the result would hold no storage node
     * @throws RejectedLayoutException if the result would hold fewer storage nodes than the replication factor and
     *     the current layout ({@link LayoutCheck#requireReplicasKept})
     */
    public ClusterLayout apply(long expectedVersion) {
        ClusterLayout planned;
        synchronized (this) {
            if (expectedVersion != current.version()) {
                throw new StaleLayoutException(expectedVersion, current.version());
            }
            if (stagedRoles.isEmpty() && stagedRemovals.isEmpty()) {
                throw new IllegalStateException("no staged layout change to apply");
            }
            Map<NodeId, NodeRole> roles = new TreeMap<>();
            current.roles().forEach(r -> roles.put(r.id(), r));
            roles.putAll(stagedRoles);
            stagedRemovals.forEach(roles::remove);
            ClusterLayout next = plan(new ArrayList<>(roles.values()));
            // The rule every other node checks before adopting it: refused here, not announced to be refused there.
            LayoutCheck.requireReplicasKept(next, current, replicationFactor);
            clusterIds.establish();
            planned = install(next);
            stagedRoles.clear();
            stagedRemovals.clear();
        }
        notifyListeners(planned);
        return planned;
    }

    @Override
    public LayoutDigest localDigest() {
        return digest;
    }

    @Override
    public String clusterId() {
        return clusterIds.value();
    }

    @Override
    public void heardClusterId(NodeId peer, String id) {
        clusterIds.heard(id, peer);
    }

    @Override
    public void announced(RpcPeer peer, LayoutDigest announced, Set<NodeId> members) {
        // Version 0 is every node's empty layout: nothing to fetch even if settings made it differ.
        if (announced.version() == 0 || !announced.isNewerThan(digest) || recentlyRejected(announced)
                || !fetching.add(announced)) {
            return;
        }
        client.call(peer, FETCH, new byte[0], FETCH_TIMEOUT)
                .whenCompleteAsync((bytes, failure) -> {
                    fetching.remove(announced);
                    if (failure != null) {
                        LOG.fine(() -> self + " could not fetch layout " + announced.version() + " from " + peer.id()
                                + ": " + failure);
                        return;
                    }
                    try {
                        ClusterLayout layout = LayoutCodec.decode(bytes);
                        if (!LayoutDigest.of(layout).equals(announced)) {
                            throw new RejectedLayoutException("it is version " + layout.version()
                                    + ", not the layout the node announced");
                        }
                        adopt(layout, members);
                    } catch (IllegalArgumentException e) {
                        rejected.put(announced, System.nanoTime());
                        LOG.warning(() -> self + " rejected layout version " + announced.version() + " from "
                                + peer.id() + " at " + peer.address() + ": " + e.getMessage());
                    } catch (RuntimeException e) {
                        LOG.log(Level.WARNING, self + " could not adopt layout " + announced.version() + " from "
                                + peer.id(), e);
                    }
                }, adopter);
    }

    private boolean recentlyRejected(LayoutDigest announced) {
        Long at = rejected.get(announced);
        if (at == null) {
            return false;
        }
        if (System.nanoTime() - at < REJECTED_RETRY.toNanos()) {
            return true;
        }
        rejected.remove(announced);
        return false;
    }

    @Override
    public void round(Map<NodeId, PeerStatus> statuses) {
        if (bootstrapExpect == 0 || current.version() != 0) {
            return;
        }
        List<PeerStatus> up = statuses.values().stream().filter(s -> s.state() == PeerStatus.State.UP).toList();
        // Only a storage node forms the first layout, the smallest of the storage nodes it sees up: a
        // gateway is no part of "the expected storage nodes", and counting it let a gateway with a small
        // id and a storage node that had not seen the gateway yet both bootstrap (two clusters).
        List<PeerStatus> storage = up.stream().filter(s -> s.capacity() > 0).toList();
        NodeId smallest = storage.stream().map(PeerStatus::id).min(NodeId::compareTo).orElse(null);
        if (storage.size() < bootstrapExpect || !self.equals(smallest)) {
            return;
        }
        ClusterLayout first;
        synchronized (this) {
            if (current.version() != 0) {
                return;
            }
            ClusterLayout planned = plan(up.stream().map(PeerStatus::role).toList());
            clusterIds.establish();
            first = install(planned);
        }
        LOG.info(() -> self + " bootstrapped layout version 1 with " + up.size() + " nodes");
        notifyListeners(first);
    }

    /**
     * Makes {@code layout}, from another node, current if it is newer than the current one; false if
     * it is not. {@code members} are the nodes membership knows, this one included.
     *
     * @throws RejectedLayoutException if it breaks a rule of {@link LayoutCheck}
     */
    public boolean adopt(ClusterLayout layout, Set<NodeId> members) {
        synchronized (this) {
            if (!LayoutDigest.of(layout).isNewerThan(digest)) {
                return false;
            }
            LayoutCheck.requireAcceptable(layout, current, members, replicationFactor);
            install(layout);
        }
        LOG.info(() -> self + " adopted layout version " + layout.version() + " (" + layout.roles().size() + " nodes)");
        notifyListeners(layout);
        return true;
    }

    @Override
    public void close() {
        adopter.shutdownNow();
    }

    private ClusterLayout plan(List<NodeRole> roles) {
        if (roles.stream().noneMatch(NodeRole::isStorage)) {
            throw new IllegalStateException("a layout needs at least one node with capacity");
        }
        return LayoutPlanner.plan(current, roles, replicationFactor);
    }

    // Written before it becomes current, hence before any ping announces it.
    private ClusterLayout install(ClusterLayout layout) {
        try {
            Files.createDirectories(file.getParent());
            AtomicFiles.write(file, LayoutCodec.encode(layout));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep layout version " + layout.version() + " in " + file, e);
        }
        current = layout;
        digest = LayoutDigest.of(layout);
        return layout;
    }

    private void notifyListeners(ClusterLayout layout) {
        for (Consumer<ClusterLayout> listener : listeners) {
            try {
                listener.accept(layout);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "layout listener failed", e);
            }
        }
    }

    private static ClusterLayout load(Path file, int replicationFactor) {
        if (!Files.exists(file)) {
            return ClusterLayout.empty(ClusterLayout.DEFAULT_PARTITIONS, replicationFactor);
        }
        try {
            return LayoutCodec.decode(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the layout in " + file, e);
        }
    }
}
