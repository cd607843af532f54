package dev.hangar.bench.consensus;

import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.cluster.Cluster;
import dev.hangar.cluster.ClusterControl;
import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.ConsensusGroup;
import dev.hangar.cluster.MaintenanceConfig;
import dev.hangar.cluster.NodeConfig;
import dev.hangar.cluster.ReclaimConfig;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import dev.hangar.cluster.layout.Partitioning;
import dev.hangar.cluster.membership.ClusterSettings;
import dev.hangar.cluster.membership.MembershipTiming;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.rpc.ClusterSecret;
import dev.hangar.cluster.rpc.NetworkFaults;
import dev.hangar.cluster.table.LocalTable;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Precondition;
import dev.hangar.metadata.command.LockCheck;
import dev.hangar.metadata.command.MetadataCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * Whole Hangar cluster nodes in this JVM on loopback, started with {@link Cluster#node} as the server starts them
 * (control plane, RPC, replicated blocks and, in the Raft mode, a Ratis server): {@code storage} storage nodes,
 * each in a zone of its own, and one gateway of capacity 0, at replication factor 3, under a temporary folder that
 * {@link #close} removes. Ports are picked at start. Every wait is bounded by {@link #WAIT}.
 *
 * <p>The first layout is applied explicitly, as an operator applies one, once every node sees every other up, and
 * names them all, the gateway included: the Raft fault hook delays only the traffic of nodes the layout names, and a
 * gateway left out of it would talk to the groups without delay. (Bootstrap-expect plans from the nodes its node
 * sees up at that moment, which on a loaded machine may leave out a gateway that was slow to answer a ping.)
 */
final class InProcessCluster implements AutoCloseable {
    static final NodeId GATEWAY = new NodeId("gateway");
    static final Duration WAIT = Duration.ofSeconds(120);
    // Pings every 200 ms: fast to form, and a 100 ms round trip (50 ms one way) still answers within an interval.
    private static final MembershipTiming TIMING = new MembershipTiming(Duration.ofMillis(200), 3, 10);
    private static final String PROBE_KEY = "placement-probe";

    private final Path dir;
    private final Policy policy;
    private final Map<NodeId, ClusterNode> nodes = new LinkedHashMap<>();
    private final Map<NodeId, NodeRole> roles = new LinkedHashMap<>();

    private InProcessCluster(Path dir, Policy policy) {
        this.dir = dir;
        this.policy = policy;
    }

    /**
     * Starts the gateway and {@code storage} storage nodes, applies the first layout once every node sees every other
     * up, and waits until every node has it; in the Raft mode, also until every group is led by its preferred leader
     * (its first replica) in the eyes of all its members.
     */
    static InProcessCluster start(Policy policy, int storage, SyncPolicy sync) {
        if (storage < 3) {
            throw new IllegalArgumentException("replication factor 3 needs at least 3 storage nodes, not " + storage);
        }
        InProcessCluster cluster;
        try {
            cluster = new InProcessCluster(Files.createTempDirectory("hangar-consensus-lab"), policy);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            // A fresh secret per cluster: the nodes authenticate each other as real ones do.
            ClusterSecret secret = ClusterSecret.of(HexFormat.of().formatHex(new SecureRandom().generateSeed(16)));
            InetSocketAddress seed = cluster.startNode(new NodeRole(GATEWAY, "zone-gateway", 0), List.of(), secret,
                    sync);
            for (int i = 1; i <= storage; i++) {
                cluster.startNode(new NodeRole(new NodeId("node-" + i), "zone-" + i, 100), List.of(seed), secret,
                        sync);
            }
            await("all " + (storage + 1) + " nodes up in every node's view", cluster::allUp);
            ClusterControl applying = control(cluster.node(GATEWAY));
            cluster.roles.values().forEach(applying::stage);
            applying.apply(0);
            await("the first layout on every node", cluster::onFirstLayout);
            if (policy.isRaft()) {
                await("every Raft group led by its preferred leader", cluster::preferredLeadersLead);
            }
            return cluster;
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    private InetSocketAddress startNode(NodeRole role, List<InetSocketAddress> seeds, ClusterSecret secret,
            SyncPolicy sync) {
        ClusterSettings settings = ClusterSettings.defaults(secret).withNodeId(role.id().value())
                .withRole(role.zone(), role.capacity()).withRpc("127.0.0.1", 0).withSeeds(seeds);
        NodeConfig config = new NodeConfig(dir.resolve(role.id().value()), sync, 8L << 20, Duration.ofMinutes(1));
        ClusterNode node = Cluster.node(config, MaintenanceConfig.DEFAULTS, settings, TIMING, ReclaimConfig.DEFAULTS,
                policy.raftSettings());
        nodes.put(role.id(), node);
        roles.put(role.id(), role);
        return control(node).address();
    }

    ClusterNode node(NodeId id) {
        ClusterNode node = nodes.get(id);
        if (node == null) {
            throw new IllegalArgumentException("no node " + id);
        }
        return node;
    }

    private Stream<ClusterNode> storageNodes() {
        return nodes.entrySet().stream().filter(entry -> !entry.getKey().equals(GATEWAY)).map(Map.Entry::getValue);
    }

    private ClusterLayout layout() {
        return control(node(GATEWAY)).layout();
    }

    private boolean allUp() {
        return nodes.values().stream().allMatch(node -> {
            Map<NodeId, PeerStatus> statuses = control(node).statuses();
            return nodes.keySet().stream().allMatch(id -> statuses.get(id) != null
                    && statuses.get(id).state() == PeerStatus.State.UP);
        });
    }

    private boolean onFirstLayout() {
        return nodes.values().stream().map(node -> control(node).layout())
                .allMatch(layout -> layout.version() >= 1 && roles.keySet().stream().allMatch(id -> layout.role(id)
                        .isPresent()));
    }

    // Every group of the plan (each node lists them all), seen by each of its members as led by its first member,
    // which sees itself as the leader: Ratis hands leadership to the member of highest priority some time after the
    // first election, and a transfer during a measurement would show as a latency spike that is not the policy's.
    private boolean preferredLeadersLead() {
        List<ConsensusGroup> plan = node(GATEWAY).replication().groups();
        if (plan.isEmpty()) {
            return false;
        }
        for (ConsensusGroup group : plan) {
            String preferred = group.members().getFirst();
            for (String member : group.members()) {
                Optional<ConsensusGroup> seen = view(new NodeId(member), group.id());
                if (seen.isEmpty() || !preferred.equals(seen.get().leader())
                        || (member.equals(preferred) && !seen.get().role().equals("leader"))) {
                    return false;
                }
            }
        }
        return true;
    }

    private Optional<ConsensusGroup> view(NodeId member, String groupId) {
        return node(member).replication().groups().stream()
                .filter(seen -> seen.id().equals(groupId) && seen.member()).findFirst();
    }

    /**
     * Which node plays each role for {@code bucket}, which must exist. Raft: the bucket's group is the group of the
     * replicas of the partition of its name (docs/cluster.md, "Groups"), the leader is who its members follow, and
     * the method returns once a command through that leader costs the one round of a leader that is ready to append
     * (a new leader forwards until the first entry of its term commits). Leaderless: the replicas are those of the
     * partition where a probe object written into the bucket landed, found in the storage nodes' own replicas of the
     * metadata table, so that nothing here depends on how the table lays out its keys.
     */
    Placement place(String bucket) {
        return policy.isRaft() ? placeInGroup(bucket) : placeOnReplicas(bucket);
    }

    private Placement placeInGroup(String bucket) {
        ClusterLayout layout = layout();
        List<NodeId> replicas = layout.replicas(
                Partitioning.of(layout).partitionOfBytes(bucket.getBytes(StandardCharsets.UTF_8)));
        List<String> names = replicas.stream().map(NodeId::value).toList();
        ConsensusGroup group = node(GATEWAY).replication().groups().stream()
                .filter(planned -> planned.members().getFirst().equals(names.getFirst())
                        && new HashSet<>(planned.members()).equals(new HashSet<>(names)))
                .findFirst().orElseThrow(() -> new IllegalStateException("no Raft group of the replicas " + names
                        + " of bucket " + bucket));
        String leaderName = view(replicas.getFirst(), group.id()).map(ConsensusGroup::leader)
                .orElseThrow(() -> new IllegalStateException("group " + group.id() + " has no leader"));
        NodeId leader = new NodeId(leaderName);
        NodeId follower = replicas.stream().filter(replica -> !replica.equals(leader)).findFirst().orElseThrow();
        await("a command through " + leader + ", leader of bucket " + bucket + "'s group, in one round",
                () -> node(leader).replication().submit(probe(bucket)).rounds() == 1);
        return new Placement(bucket, leader, follower, GATEWAY);
    }

    private Placement placeOnReplicas(String bucket) {
        node(GATEWAY).replication().submit(probe(bucket));
        // Acknowledged at the write quorum: at least two storage nodes hold it already.
        int partition = storageNodes().map(node -> partitionHolding(node, PROBE_KEY))
                .flatMapToInt(OptionalInt::stream).findFirst().orElseThrow(() -> new IllegalStateException(
                        "no storage node holds the probe object written into " + bucket));
        List<NodeId> replicas = layout().replicas(partition);
        return new Placement(bucket, replicas.get(0), replicas.get(1), GATEWAY);
    }

    /** The partition of a node's own metadata replica that holds an entry whose sort key begins with {@code key}. */
    private static OptionalInt partitionHolding(ClusterNode node, String key) {
        byte[] prefix = key.getBytes(StandardCharsets.UTF_8);
        LocalTable table = node.replicas().orElseThrow().localTable();
        for (int partition = 0; partition < table.partitions(); partition++) {
            boolean[] found = {false};
            table.forEachInPartition(partition, entry -> found[0] |= entry.sortKey().length >= prefix.length
                    && Arrays.equals(entry.sortKey(), 0, prefix.length, prefix, 0, prefix.length));
            if (found[0]) {
                return OptionalInt.of(partition);
            }
        }
        return OptionalInt.empty();
    }

    private static MetadataCommand.PutVersion probe(String bucket) {
        byte[] data = PROBE_KEY.getBytes(StandardCharsets.UTF_8);
        ObjectVersion version = new ObjectVersion(bucket, PROBE_KEY, ObjectVersion.NULL_VERSION, Instant.now(),
                data.length, "\"probe\"", new ObjectContent.Inline(data), Map.of(), Map.of(), null, List.of());
        return new MetadataCommand.PutVersion(version, new Precondition.None(), LockCheck.NONE);
    }

    /**
     * The same one-way delay on every link between two nodes, in both directions, set on every node's fault hook:
     * each node delays what it sends over the RPC and, through its Raft server's hook, what its Raft peers and
     * clients send it and what it answers, so every message is held once. Zero clears the hooks, which then cost
     * nothing.
     */
    void delayEveryLink(Duration oneWay) {
        List<NodeId> ids = List.copyOf(nodes.keySet());
        for (ClusterNode node : nodes.values()) {
            NetworkFaults faults = control(node).faults().clear();
            if (oneWay.isZero()) {
                continue;
            }
            for (int i = 0; i < ids.size(); i++) {
                for (int j = i + 1; j < ids.size(); j++) {
                    faults.delayBetween(ids.get(i), ids.get(j), oneWay, Duration.ZERO);
                }
            }
        }
    }

    private static ClusterControl control(ClusterNode node) {
        return node.control().orElseThrow(() -> new IllegalStateException("not a cluster node"));
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not within " + WAIT + ": " + what);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            }
        }
    }

    /** Closes every node at once (a Ratis server takes about a second to close), then removes the folder. */
    @Override
    public void close() {
        List<RuntimeException> failures = new ArrayList<>();
        try (ExecutorService closing = Executors.newVirtualThreadPerTaskExecutor()) {
            List<CompletableFuture<Void>> closed = nodes.values().stream()
                    .map(node -> CompletableFuture.runAsync(node::close, closing)).toList();
            for (CompletableFuture<Void> node : closed) {
                try {
                    node.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                } catch (ExecutionException e) {
                    failures.add(e.getCause() instanceof RuntimeException failure ? failure
                            : new IllegalStateException(e.getCause()));
                } catch (TimeoutException e) {
                    failures.add(new IllegalStateException("a node did not close within " + WAIT, e));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failures.add(new IllegalStateException("interrupted while closing the nodes", e));
                    break;
                }
            }
        }
        nodes.clear();
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            failures.add(new UncheckedIOException(e));
        }
        if (!failures.isEmpty()) {
            RuntimeException failure = failures.getFirst();
            failures.stream().skip(1).forEach(failure::addSuppressed);
            throw failure;
        }
    }
}
