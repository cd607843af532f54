package dev.hangar.cluster;

import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import dev.hangar.cluster.membership.ClusterIdentity;
import dev.hangar.cluster.membership.ClusterSettings;
import dev.hangar.cluster.membership.LayoutManager;
import dev.hangar.cluster.membership.Membership;
import dev.hangar.cluster.membership.MembershipListener;
import dev.hangar.cluster.membership.MembershipTiming;
import dev.hangar.cluster.membership.NodeIdentity;
import dev.hangar.cluster.membership.PeerInfo;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.membership.StagedChanges;
import dev.hangar.cluster.membership.StaleLayoutException;
import dev.hangar.cluster.rpc.NetworkFaults;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcConfig;
import dev.hangar.cluster.rpc.RpcPeer;
import dev.hangar.cluster.rpc.RpcSecurity;
import dev.hangar.cluster.rpc.RpcServer;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The cluster control plane of one node: its RPC server and client, {@link Membership} (peer
 * discovery through the seeds, failure detection) and {@link LayoutManager} (the current layout,
 * staged changes, convergence on the newest layout, bootstrap).
 *
 * <p>Every RPC connection, in and out, is authenticated with the cluster secret of the settings
 * (inside TLS when configured) and the cluster id kept in the data directory ({@link
 * ClusterIdentity}), before any request passes.
 */
public final class ClusterControl implements AutoCloseable {
    private final ClusterSettings settings;
    private final NodeId self;
    private final ClusterIdentity clusterIds;
    private final InetSocketAddress address;
    private final RpcServer server;
    private final RpcClient client;
    private final LayoutManager layouts;
    private final Membership membership;
    private final NetworkFaults faults;

    private ClusterControl(ClusterSettings settings, NodeId self, ClusterIdentity clusterIds, InetSocketAddress address,
            RpcServer server, RpcClient client, LayoutManager layouts, Membership membership, NetworkFaults faults) {
        this.settings = settings;
        this.self = self;
        this.clusterIds = clusterIds;
        this.address = address;
        this.server = server;
        this.client = client;
        this.layouts = layouts;
        this.membership = membership;
        this.faults = faults;
    }

    /**
     * What a node runs on top of the control plane: installed after the control plane exists but
     * before the RPC port is bound, so that the first request a peer sends finds its handler.
     */
    @FunctionalInterface
    public interface Services {
        /**
         * Registers the services' handlers on {@code server}; {@code addresses} resolves a node id to
         * its RPC address as membership learns them, and throws for a node never heard of; {@code
         * statuses} gives every other known node as membership sees it now (a live view, no copy per
         * call), and no node until membership starts, just after the bind; {@code faults} is the node's fault hook
         * ({@link #faults()}), for services with traffic of their own to apply it to.
         */
        void install(NodeId self, RpcServer server, RpcClient client, NetworkFaults faults, LayoutManager layouts,
                Function<NodeId, InetSocketAddress> addresses, Supplier<Map<NodeId, PeerStatus>> statuses);
    }

    /** Starts the control plane of the node whose data is in {@code dataDir}, with the default timing. */
    public static ClusterControl start(ClusterSettings settings, Path dataDir) {
        return start(settings, dataDir, MembershipTiming.defaults());
    }

    /**
     * Starts the control plane: takes the node id (configured, or the one kept in {@code dataDir}),
     * loads the layout kept there, binds the RPC server and starts pinging the seeds.
     *
     * @throws IllegalStateException if the RPC port cannot be bound
     */
    public static ClusterControl start(ClusterSettings settings, Path dataDir, MembershipTiming timing) {
        return start(settings, dataDir, timing, (self, server, client, faults, layouts, addresses, statuses) -> {});
    }

    /** As {@link #start(ClusterSettings, Path, MembershipTiming)}, with {@code services} installed before the bind. */
    public static ClusterControl start(ClusterSettings settings, Path dataDir, MembershipTiming timing,
            Services services) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(timing, "timing");
        NodeId id = NodeIdentity.loadOrCreate(dataDir, settings.nodeId());
        ClusterIdentity clusterIds = ClusterIdentity.load(dataDir);
        RpcConfig rpc = RpcConfig.defaults();
        RpcSecurity security = new RpcSecurity(settings.secret(), settings.tls(), clusterIds::value);
        NetworkFaults faults = new NetworkFaults();
        RpcClient client = new RpcClient(id, rpc, security, faults);
        RpcServer server;
        try {
            server = new RpcServer(id, rpc, security, faults, null);
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
        LayoutManager layouts = null;
        try {
            layouts = new LayoutManager(dataDir, id, settings.replicationFactor(), settings.bootstrapExpect(), client,
                    clusterIds);
            layouts.register(server);
            AtomicReference<Membership> joined = new AtomicReference<>();
            services.install(id, server, client, faults, layouts, node -> resolve(joined.get(), id, server, node),
                    () -> statusesOf(joined.get()));
            InetSocketAddress bound;
            try {
                bound = server.start(settings.rpcBindAddress(), settings.rpcPort());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while binding the cluster RPC port", e);
            } catch (RuntimeException e) {
                throw new IllegalStateException("cannot bind the cluster RPC port " + settings.rpcBindAddress() + ":"
                        + settings.rpcPort() + ": " + e.getMessage(), e);
            }
            InetSocketAddress advertised = settings.advertised(bound);
            PeerInfo info = new PeerInfo(id, settings.zone(), settings.capacity(), advertised);
            Membership membership = new Membership(info, settings.seeds(), timing, client, layouts);
            membership.register(server);
            joined.set(membership);
            membership.start();
            return new ClusterControl(
                    settings, id, clusterIds, advertised, server, client, layouts, membership, faults);
        } catch (RuntimeException e) {
            if (layouts != null) {
                layouts.close();
            }
            server.close();
            client.close();
            throw e;
        }
    }

    private static InetSocketAddress resolve(@Nullable Membership membership, NodeId self, RpcServer server,
            NodeId node) {
        if (node.equals(self)) {
            return server.address();
        }
        RpcPeer peer = membership == null ? null : membership.peer(node);
        if (peer == null) {
            throw new IllegalStateException("no address known yet for node " + node);
        }
        return peer.address();
    }

    private static Map<NodeId, PeerStatus> statusesOf(@Nullable Membership membership) {
        return membership == null ? Map.of() : membership.peersView();
    }

    public NodeId selfId() {
        return self;
    }

    public ClusterSettings settings() {
        return settings;
    }

    /** The id of the cluster this node belongs to; "" until it formed or joined one. */
    public String clusterId() {
        return clusterIds.value();
    }

    /** Where other nodes reach this one's RPC server (the advertised address). */
    public InetSocketAddress address() {
        return address;
    }

    /** Every known node, this one included, as this node sees it. */
    public Map<NodeId, PeerStatus> statuses() {
        return membership.statuses();
    }

    /** The current layout (version 0, empty, until the first one is applied or bootstrapped). */
    public ClusterLayout layout() {
        return layouts.current();
    }

    public StagedChanges staged() {
        return layouts.staged();
    }

    /** Stages a new node or a changed zone or capacity for the next {@link #apply}. */
    public void stage(NodeRole role) {
        layouts.stage(role);
    }

    /** Stages taking a node out of the layout at the next {@link #apply}. */
    public void stageRemoval(NodeId id) {
        layouts.stageRemoval(id);
    }

    public void clearStaged() {
        layouts.clearStaged();
    }

    /**
     * Applies the staged changes as layout {@code expectedVersion + 1}; other nodes adopt it when they
     * next hear of it.
     *
     * @throws StaleLayoutException if {@code expectedVersion} is not the current version
     * @throws IllegalStateException if nothing is staged or the result would hold no storage node
     */
    public ClusterLayout apply(long expectedVersion) {
        return layouts.apply(expectedVersion);
    }

    /** Tells {@code listener} of every change of a node's state (UP, SUSPECT, DOWN). */
    public void addMembershipListener(MembershipListener listener) {
        membership.addListener(listener);
    }

    /** Tells {@code listener} of every layout this node adopts or applies. */
    public void addLayoutListener(Consumer<ClusterLayout> listener) {
        layouts.addListener(listener);
    }

    /**
     * The fault hook of this node's RPC traffic: delay with jitter per peer pair, drops and
     * partitions, for tests and benchmarks. Faults apply to what this node sends and receives, and,
     * in the Raft mode, to the Raft traffic its Raft server takes part in (both directions of every
     * call a peer makes to it; see {@code raft.RaftFaults}).
     */
    public NetworkFaults faults() {
        return faults;
    }

    /** Stops pinging and serving; peers see this node go SUSPECT, then DOWN. */
    @Override
    public void close() {
        try {
            membership.close();
            layouts.close();
        } finally {
            try {
                server.close();
            } finally {
                client.close();
            }
        }
    }
}
