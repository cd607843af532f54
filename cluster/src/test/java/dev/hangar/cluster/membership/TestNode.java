package dev.hangar.cluster.membership;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.rpc.NetworkFaults;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcConfig;
import dev.hangar.cluster.rpc.RpcSecurity;
import dev.hangar.cluster.rpc.RpcServer;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** One node's membership side, wired the way a real node wires it, on loopback. */
final class TestNode implements AutoCloseable {
    /** Fast enough that a test sees SUSPECT after 0.3 s and DOWN after 0.8 s. */
    static final MembershipTiming FAST = new MembershipTiming(Duration.ofMillis(100), 3, 8);
    private static final RpcConfig RPC =
            new RpcConfig(RpcConfig.DEFAULT_MAX_FRAME_BYTES, 4096, 256 << 10, 1 << 20, Duration.ofSeconds(1), 1);

    final NodeId id;
    final InetSocketAddress address;
    final RpcServer server;
    final RpcClient client;
    final LayoutManager layouts;
    final Membership membership;

    private TestNode(NodeId id, InetSocketAddress address, RpcServer server, RpcClient client, LayoutManager layouts,
            Membership membership) {
        this.id = id;
        this.address = address;
        this.server = server;
        this.client = client;
        this.layouts = layouts;
        this.membership = membership;
    }

    static TestNode start(Path dataDir, ClusterSettings settings, NetworkFaults faults) throws InterruptedException {
        NodeId id = NodeIdentity.loadOrCreate(dataDir, settings.nodeId());
        ClusterIdentity clusterIds = ClusterIdentity.load(dataDir);
        RpcSecurity security = new RpcSecurity(settings.secret(), settings.tls(), clusterIds::value);
        RpcServer server = new RpcServer(id, RPC, security, faults, null);
        RpcClient client = new RpcClient(id, RPC, security, faults);
        LayoutManager layouts = new LayoutManager(
                dataDir, id, settings.replicationFactor(), settings.bootstrapExpect(), client, clusterIds);
        layouts.register(server);
        InetSocketAddress address = settings.advertised(server.start(settings.rpcBindAddress(), settings.rpcPort()));
        PeerInfo self = new PeerInfo(id, settings.zone(), settings.capacity(), address);
        Membership membership = new Membership(self, settings.seeds(), FAST, client, layouts);
        membership.register(server);
        membership.start();
        return new TestNode(id, address, server, client, layouts, membership);
    }

    Map<NodeId, PeerStatus> statuses() {
        return membership.statuses();
    }

    PeerStatus.State stateOf(NodeId peer) {
        PeerStatus status = statuses().get(peer);
        return status == null ? PeerStatus.State.DOWN : status.state();
    }

    @Override
    public void close() {
        membership.close();
        layouts.close();
        server.close();
        client.close();
    }
}
