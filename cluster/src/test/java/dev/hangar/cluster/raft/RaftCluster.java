package dev.hangar.cluster.raft;

import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.cluster.Cluster;
import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.ConsensusGroup;
import dev.hangar.cluster.MaintenanceConfig;
import dev.hangar.cluster.NodeConfig;
import dev.hangar.cluster.RaftSettings;
import dev.hangar.cluster.ReclaimConfig;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.membership.ClusterSettings;
import dev.hangar.cluster.membership.MembershipTiming;
import dev.hangar.cluster.rpc.ClusterSecret;
import dev.hangar.cluster.rpc.NetworkFaults;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Whole cluster nodes in the Raft mode on loopback, in this JVM: control plane, RPC, replicated blocks and a Ratis
 * server each, on ports picked at start. The first layout forms by itself once all have met (bootstrap-expect).
 */
final class RaftCluster implements AutoCloseable {
    static final ClusterSecret SECRET = ClusterSecret.of("raft-cluster-test-secret-0123456789");
    private static final MembershipTiming FAST = new MembershipTiming(Duration.ofMillis(100), 3, 8);
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final Path dir;
    private final RaftSettings settings;
    private final int size;
    private final List<ClusterNode> nodes = new ArrayList<>();
    private InetSocketAddress seed;

    private RaftCluster(Path dir, int size, RaftSettings settings) {
        this.dir = dir;
        this.size = size;
        this.settings = settings;
    }

    /**
     * Starts {@code size} nodes named n1, n2, ... and waits until each has the first layout; 20 ms expected round
     * trips (elections after 200–400 ms of silence).
     */
    static RaftCluster start(Path dir, int size, RaftSettings.Reads reads) {
        return start(dir, size, new RaftSettings("127.0.0.1", 0, reads, Duration.ofMillis(20)));
    }

    /** Settings that snapshot every 20 entries in 64 KiB log segments: a returning or new member gets a snapshot. */
    static RaftSettings smallSnapshots(RaftSettings.Reads reads) {
        return new RaftSettings("127.0.0.1", 0, reads, Duration.ofMillis(20), 20, 64 * 1024,
                RaftSettings.DEFAULT_REQUEST_DEADLINE);
    }

    /** As {@link #start(Path, int, RaftSettings.Reads)}, each node with these settings (its port picked at start). */
    static RaftCluster start(Path dir, int size, RaftSettings settings) {
        RaftCluster cluster = new RaftCluster(dir, size, settings);
        try {
            for (int i = 1; i <= size; i++) {
                ClusterNode node = cluster.startNode("n" + i, 0, 0);
                if (cluster.seed == null) {
                    cluster.seed = node.control().orElseThrow().address();
                }
            }
            long deadline = System.nanoTime() + WAIT.toNanos();
            // The layout first, then the groups: a node plans them when its layout listener runs, just after.
            while (!cluster.nodes.stream().allMatch(node -> node.control().orElseThrow().layout().version() >= 1
                    && raft(node).plan() != null)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the " + size + " nodes did not form a layout and its Raft groups within "
                            + WAIT);
                }
                Thread.sleep(50);
            }
            return cluster;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cluster.close();
            throw new IllegalStateException(e);
        } catch (RuntimeException | AssertionError e) {
            cluster.close();
            throw e;
        }
    }

    private ClusterNode startNode(String id, int rpcPort, int raftPort) {
        ClusterSettings cluster = ClusterSettings.defaults(SECRET).withNodeId(id).withRole("z-" + id, 1)
                .withRpc("127.0.0.1", rpcPort).withSeeds(seed == null ? List.of() : List.of(seed))
                .withBootstrapExpect(size);
        NodeConfig config = new NodeConfig(dir.resolve(id), SyncPolicy.NONE, 8 << 20, Duration.ofMinutes(1));
        ClusterNode node = Cluster.node(config, MaintenanceConfig.DEFAULTS, cluster, FAST, ReclaimConfig.DEFAULTS,
                settings.withPort(raftPort));
        nodes.add(node);
        return node;
    }

    /** Starts one more node, named {@code id}: it joins the cluster, whose layout stays as it is until a change. */
    ClusterNode add(String id) {
        return startNode(id, 0, 0);
    }

    /** Stops node {@code index} (a clean close) and returns a restart of it on its data and ports. */
    Runnable stop(int index) {
        ClusterNode node = nodes.get(index);
        String id = node.control().orElseThrow().selfId().value();
        int rpcPort = node.control().orElseThrow().address().getPort();
        int raftPort = raft(node).raftPort();
        node.close();
        return () -> nodes.set(index, startNodeAt(index, id, rpcPort, raftPort));
    }

    private ClusterNode startNodeAt(int index, String id, int rpcPort, int raftPort) {
        ClusterNode node = startNode(id, rpcPort, raftPort);
        nodes.remove(nodes.size() - 1);
        return node;
    }

    List<ClusterNode> nodes() {
        return nodes;
    }

    ClusterNode node(int index) {
        return nodes.get(index);
    }

    /** A node's id. */
    static NodeId id(ClusterNode node) {
        return node.control().orElseThrow().selfId();
    }

    /** A node's fault hook: its RPC's and, through {@link RaftFaults}, its Raft server's. */
    static NetworkFaults faults(ClusterNode node) {
        return node.control().orElseThrow().faults();
    }

    /** A node's Raft mode. */
    static RaftReplication raft(ClusterNode node) {
        return (RaftReplication) node.replication();
    }

    /** The node with this id. */
    ClusterNode node(NodeId id) {
        return nodes.stream().filter(node -> id(node).equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no node " + id));
    }

    /** The groups commands are routed by, as the first node planned them (every node plans alike). */
    GroupPlan plan() {
        long deadline = System.nanoTime() + WAIT.toNanos();
        GroupPlan plan;
        while ((plan = raft(nodes.getFirst()).plan()) == null) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the Raft groups were not formed within " + WAIT);
            }
            sleep(20);
        }
        return plan;
    }

    /**
     * Waits until every member of every group sees its preferred leader lead it, and that leader is ready to append
     * (the first leader elected may be another member; Ratis hands leadership to the member of highest priority
     * soon after, and a new leader is ready once the first entry of its term commits).
     */
    void awaitPreferredLeaders() {
        GroupPlan plan = plan();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!plan.groups().stream().allMatch(group -> raft(node(group.preferredLeader())).leadsReady(group)
                && group.members().stream().allMatch(member -> view(member, group)
                        .filter(seen -> group.preferredLeader().value().equals(seen.leader())).isPresent()))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the groups' preferred leaders did not all lead within " + WAIT + ": "
                        + nodes.stream().map(node -> id(node) + "=" + node.replication().groups()).toList());
            }
            sleep(50);
        }
    }

    /** How {@code member} sees {@code group}, if it has its division. */
    java.util.Optional<ConsensusGroup> view(NodeId member, GroupPlan.Group group) {
        return node(member).replication().groups().stream()
                .filter(seen -> seen.id().equals(group.id().toString()) && seen.member()).findFirst();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Closes the nodes at once: a Ratis server takes about a second to close, and tests start many clusters. */
    @Override
    public void close() {
        List<Thread> closing = new ArrayList<>();
        List<RuntimeException> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (ClusterNode node : nodes) {
            closing.add(Thread.ofPlatform().name("close-" + closing.size()).start(() -> {
                try {
                    node.close();
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }));
        }
        nodes.clear();
        for (Thread thread : closing) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while closing the cluster", e);
            }
        }
        if (!failures.isEmpty()) {
            RuntimeException failure = failures.getFirst();
            failures.stream().skip(1).forEach(failure::addSuppressed);
            throw failure;
        }
    }
}
