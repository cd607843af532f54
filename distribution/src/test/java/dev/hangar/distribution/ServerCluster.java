package dev.hangar.distribution;

import dev.hangar.cluster.ClusterControl;
import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.membership.PeerStatus;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Hangar servers forming one cluster on loopback, each a {@link DedicatedServer} in this JVM with a data
 * folder, S3 port and RPC port of its own, all with the same root key pair. Nodes can be stopped (their
 * data stays) and started again on the same RPC port, as a restarted machine would be.
 */
final class ServerCluster implements AutoCloseable {
    static final Duration CONVERGENCE = Duration.ofSeconds(60);
    /** The cluster secret of every test cluster (hangar.cluster.secret). */
    static final String SECRET = "hangar-it-cluster-secret-0123456789";

    /** One node's settings: its id, zone and capacity (0: a gateway that stores nothing). */
    record Member(String id, String zone, long capacity) {
        static Member storage(String id, String zone) {
            return new Member(id, zone, 100);
        }
    }

    private final Path dir;
    private final String accessKey;
    private final String secretKey;
    private final List<String> extraSettings;
    private final Map<String, Member> members = new LinkedHashMap<>();
    private final Map<String, DedicatedServer> running = new LinkedHashMap<>();
    private final Map<String, Integer> rpcPorts = new LinkedHashMap<>();
    private final int bootstrapExpect;

    private ServerCluster(Path dir, String accessKey, String secretKey, List<String> extraSettings,
            int bootstrapExpect) {
        this.dir = dir;
        this.accessKey = accessKey;
        this.secretKey = secretKey;
        this.extraSettings = List.copyOf(extraSettings);
        this.bootstrapExpect = bootstrapExpect;
    }

    /**
     * Starts the members (storage nodes bootstrap the first layout by themselves, gateways join after it
     * formed) and waits until every node is UP everywhere on layout 1.
     */
    static ServerCluster start(Path dir, String accessKey, String secretKey, List<Member> members,
            String... extraSettings) {
        int storageNodes = (int) members.stream().filter(member -> member.capacity() > 0).count();
        ServerCluster cluster = new ServerCluster(dir, accessKey, secretKey, List.of(extraSettings), storageNodes);
        try {
            for (Member member : members) {
                if (member.capacity() > 0) {
                    cluster.add(member);
                }
            }
            cluster.awaitLayout(1);
            for (Member member : members) {
                if (member.capacity() == 0) {
                    cluster.add(member);
                }
            }
            cluster.awaitAllUp();
            return cluster;
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    /** Starts a new node that joins through the running nodes; it is in no layout until one is applied. */
    DedicatedServer add(Member member) {
        members.put(member.id(), member);
        return startNode(member.id(), 0);
    }

    /** Stops a node as a crash would, keeping its data folder. */
    void stop(String id) {
        DedicatedServer server = running.remove(id);
        if (server != null) {
            server.close();
        }
    }

    /** Starts a stopped node again, on its data folder and RPC port. */
    DedicatedServer restart(String id) {
        return startNode(id, rpcPorts.get(id));
    }

    DedicatedServer server(String id) {
        DedicatedServer server = running.get(id);
        if (server == null) {
            throw new IllegalArgumentException("node " + id + " is not running");
        }
        return server;
    }

    ClusterNode node(String id) {
        return server(id).node();
    }

    ClusterControl control(String id) {
        return node(id).control().orElseThrow();
    }

    Collection<String> runningIds() {
        return List.copyOf(running.keySet());
    }

    List<DedicatedServer> servers() {
        return List.copyOf(running.values());
    }

    Member member(String id) {
        return members.get(id);
    }

    /** Waits until every running node has adopted layout {@code version} or a newer one. */
    void awaitLayout(long version) {
        await(() -> running.values().stream()
                        .allMatch(server -> server.node().control().orElseThrow().layout().version() >= version),
                "every node on layout " + version);
    }

    /** Waits until every running node sees every running node UP. */
    void awaitAllUp() {
        await(() -> {
            for (DedicatedServer server : running.values()) {
                Map<NodeId, PeerStatus> statuses = server.node().control().orElseThrow().statuses();
                for (String id : running.keySet()) {
                    PeerStatus status = statuses.get(new NodeId(id));
                    if (status == null || status.state() != PeerStatus.State.UP) {
                        return false;
                    }
                }
            }
            return true;
        }, "every node UP everywhere");
    }

    ClusterLayout layout() {
        return running.values().iterator().next().node().control().orElseThrow().layout();
    }

    /** Polls {@code condition} every 100 ms until it holds; fails after {@link #CONVERGENCE}. */
    static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + CONVERGENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + CONVERGENCE + ": " + what);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private DedicatedServer startNode(String id, int rpcPort) {
        Member member = members.get(id);
        List<String> settings = new ArrayList<>(List.of(
                "storage.sync=none",
                "cluster.enabled=true",
                "cluster.node-id=" + id,
                "cluster.zone=" + member.zone(),
                "cluster.capacity=" + member.capacity(),
                "cluster.rpc-bind-address=127.0.0.1",
                "cluster.rpc-port=" + rpcPort,
                "cluster.bootstrap-expect=" + bootstrapExpect,
                "cluster.ping-interval=200ms",
                "cluster.secret=" + SECRET));
        @Nullable String seeds = seeds(id);
        if (seeds != null) {
            settings.add("cluster.seeds=" + seeds);
        }
        settings.addAll(extraSettings);
        DedicatedServer server =
                DedicatedServer.startWithKeys(dir.resolve(id), accessKey, secretKey, settings.toArray(String[]::new));
        running.put(id, server);
        InetSocketAddress bound = server.node().control().orElseThrow().address();
        rpcPorts.put(id, bound.getPort());
        return server;
    }

    // Every other running node is a seed: a restarted node finds the cluster whichever nodes are up.
    private @Nullable String seeds(String except) {
        List<String> seeds = new ArrayList<>();
        for (Map.Entry<String, DedicatedServer> entry : running.entrySet()) {
            if (!entry.getKey().equals(except)) {
                seeds.add("127.0.0.1:" + rpcPorts.get(entry.getKey()));
            }
        }
        return seeds.isEmpty() ? null : String.join(",", seeds);
    }

    @Override
    public void close() {
        for (String id : List.copyOf(running.keySet())) {
            stop(id);
        }
    }
}
