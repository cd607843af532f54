package dev.hangar.cluster.raft;

import dev.hangar.cluster.Applied;
import dev.hangar.cluster.ConsensusGroup;
import dev.hangar.cluster.RaftSettings;
import dev.hangar.cluster.Replication;
import dev.hangar.cluster.ReplicationMode;
import dev.hangar.cluster.ReplicationStats;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.rpc.ClusterSecret;
import dev.hangar.cluster.rpc.NetworkFaults;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcServer;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.query.ReadQuery;
import dev.hangar.metadata.rocksdb.RocksDbConfig;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;

/**
 * The Raft mode ({@code hangar.cluster.replication=raft}): metadata commands go through the Raft log of the group
 * that holds their bucket (Apache Ratis over gRPC) and are applied at commit on every member of it by the one
 * {@code MetadataStateMachine} ({@link CommandStateMachine}); chunks stay in the leaderless block store. Every
 * command's conditions (preconditions, Object Lock, version order) are checked at one point of one log, so its
 * outcome is exact for every coordinator.
 *
 * <p>Rounds, counted as the other modes count them (sequential inter-node waits of one request): a command through
 * the leader of its group is one (the append that commits it), through a follower or a node outside the group two
 * (the forward to the leader, then that append). Reads are linearizable as the configured {@link RaftSettings.Reads}
 * says: on the leader, no round under its lease (one heartbeat round in read-index mode); elsewhere one round, a
 * forward to the leader (lease and leader modes, and nodes outside the group) or a ReadIndex from the leader
 * (read-index mode on a follower; two rounds from outside the group). Settings (buckets, their configuration,
 * access keys) are read from a member's own replica without a round, and on a node outside the group from its copies
 * of what it last read from the leader ({@link SettingsCopies}); a change of them waits for every member to have it
 * committed and for the other nodes to drop their copies, one round more ({@link Settings}, {@link SettingsChanges}).
 *
 * <p>Commands are submitted by {@link RaftCommands}, reads answered by {@link RaftReads}; this class starts the
 * mode, takes the layouts and shows the groups.
 */
public final class RaftReplication implements Replication {
    /** How long a settings change waits for every member, and a settings read for its member to catch up. */
    static final Duration SETTINGS_WAIT = Duration.ofSeconds(1);

    private final RaftHost host;
    private final GroupKeeper keeper;
    private final GroupCalls calls;
    private final ReplicationStats stats = new ReplicationStats(() -> 0);
    private final RaftCommands commands;
    private final RaftReads reads;
    private final RaftMetadata state;

    private RaftReplication(RaftHost host, GroupKeeper keeper, RaftSettings settings, SettingsChanges changes) {
        this.host = host;
        this.keeper = keeper;
        this.calls = new GroupCalls(host, keeper, settings);
        this.reads = new RaftReads(host, settings, calls, stats);
        this.commands = new RaftCommands(host, keeper, settings, calls, stats, reads.copies(), changes);
        this.state = new RaftMetadata(this);
    }

    /**
     * Starts this node's Raft server with its logs and group stores under {@code folder}, and answers other nodes'
     * questions for its Raft port on {@code server}. Call on the thread that starts the node (see {@link RaftHost}),
     * then hand it every layout with {@link #layout}.
     *
     * @param storeConfig the configuration of a group store, given its folder
     * @param syncedLog whether an entry is acknowledged only once synced to the members' disks
     * @param secret the cluster secret, which the Raft channels are authenticated with as the RPC is
     * @param faults the fault hook of the node's RPC ({@code ClusterControl.faults()}): the same delays, drops and
     *     partitions then apply to its Raft traffic ({@link RaftFaults})
     * @param clusterId the node's cluster id ("" until it has one), which the Raft certificates are bound to
     */
    public static RaftReplication start(NodeId self, RaftSettings settings, Path folder, boolean syncedLog,
            Function<Path, RocksDbConfig> storeConfig, ClusterSecret secret, RpcServer server, RpcClient client,
            Function<NodeId, InetSocketAddress> rpcAddresses, NetworkFaults faults, Supplier<String> clusterId) {
        // Mutual TLS with certificates bound to the cluster secret and id: no peer without the secret, nor one of
        // another cluster configured with the same secret, can join, append or vote.
        Parameters parameters = RaftTls.create(secret, clusterId).applyTo(new Parameters());
        RaftHost host = RaftHost.start(self, settings, folder, syncedLog, parameters, faults,
                () -> new CommandStateMachine(storeConfig));
        try {
            RaftAddresses addresses = new RaftAddresses(client, rpcAddresses);
            RaftAddresses.serve(server, () -> host.address().getPort());
            addresses.own(self, host.address().getPort());
            GroupKeeper keeper = new GroupKeeper(host, addresses, new GroupFormation(client, rpcAddresses), folder);
            GroupFormation.serve(server, keeper::formedOn);
            GroupPlan plan = keeper.plan();
            if (plan != null) {
                plan.groups().forEach(group -> group.members().forEach(host.faults()::register));
            }
            RaftReplication replication =
                    new RaftReplication(host, keeper, settings, new SettingsChanges(self, client, rpcAddresses));
            SettingsChanges.serve(server, replication.reads.copies());
            return replication;
        } catch (RuntimeException e) {
            host.close();
            throw e;
        }
    }

    /** Takes the cluster's current layout: the first one forms the groups, later ones change their members. */
    public void layout(ClusterLayout layout) {
        layout.roles().forEach(role -> host.faults().register(role.id()));
        commands.layout(layout);
        keeper.layout(layout);
    }

    /** The fault hook on this node's Raft server, for tests. */
    RaftFaults faultHook() {
        return host.faults();
    }

    /**
     * Whether this node leads {@code group} and is ready to append (a new leader is not until the first entry of
     * its term commits: commands it gets meanwhile are forwarded), for tests.
     */
    boolean leadsReady(GroupPlan.Group group) {
        return host.division(group.id()).map(division -> division.getInfo().isLeaderReady()).orElse(false);
    }

    /** The groups commands are routed by; null until the cluster has a layout. */
    @org.jspecify.annotations.Nullable GroupPlan plan() {
        return keeper.plan();
    }

    @Override
    public ReplicationMode mode() {
        return ReplicationMode.RAFT;
    }

    @Override
    public <R> Applied<R> submit(MetadataCommand<R> command) {
        return commands.submit(command);
    }

    /** Answers {@code query} from the group of {@code route}, linearizably ({@link RaftReads}). */
    <T> T read(ReadQuery<T> query, String route) {
        return reads.read(query, route);
    }

    /** Answers {@code query} from every group at once, in group order, for reads that name no bucket. */
    <T> List<T> readAll(ReadQuery<T> query) {
        return reads.readAll(query);
    }

    /** Brings this node's replicas up to every command committed before the call: for tests. */
    void catchUp() {
        reads.catchUp();
    }

    /** Whether settings reads are linearizable too (tests of the contract), instead of read from a member's replica. */
    void linearizableSettings(boolean linearizable) {
        reads.linearizableSettings(linearizable);
    }

    /**
     * The replica where this node queues the blocks of its own failed writes: that of the first group it is a member
     * of (waiting for it to open, right after start); empty on a node that is a member of none (a gateway).
     */
    Optional<MetadataStore> ownStore() {
        GroupPlan plan = keeper.plan();
        if (plan == null) {
            return Optional.empty();
        }
        for (GroupPlan.Group group : plan.groups()) {
            if (group.hasMember(host.self())) {
                calls.awaitDivision(group);
                return host.stateMachine(group.id()).flatMap(CommandStateMachine::openStore).map(MetadataStore.class::cast);
            }
        }
        return Optional.empty();
    }

    /** This node's replicas of the groups it is a member of, for its own bookkeeping (garbage, statistics). */
    List<MetadataStore> localStores() {
        GroupPlan plan = keeper.plan();
        List<MetadataStore> stores = new ArrayList<>();
        if (plan != null) {
            for (GroupPlan.Group group : plan.groups()) {
                host.stateMachine(group.id()).flatMap(CommandStateMachine::openStore).ifPresent(stores::add);
            }
        }
        return stores;
    }

    @Override
    public MetadataStore state() {
        return state;
    }

    /** The port this node's Raft server is bound to. */
    int raftPort() {
        return host.address().getPort();
    }

    /** This node's division of the group of {@code route}'s bucket, if it is a member: for tests. */
    Optional<RaftServer.Division> divisionOf(String route) {
        GroupPlan plan = keeper.plan();
        return plan == null ? Optional.empty() : host.division(plan.groupOf(route).id());
    }

    /** This node's division of {@code group}, if it has one: for tests. */
    Optional<RaftServer.Division> divisionOf(GroupPlan.Group group) {
        return host.division(group.id());
    }

    /** This node's replica of the group of {@code route}'s bucket, read directly (no barrier): for tests. */
    Optional<MetadataStore> replicaOf(String route) {
        GroupPlan plan = keeper.plan();
        return plan == null ? Optional.empty()
                : host.stateMachine(plan.groupOf(route).id()).flatMap(CommandStateMachine::openStore)
                        .map(MetadataStore.class::cast);
    }

    /** Another view of the state, which can be closed by itself (the contract test closes and reopens stores). */
    MetadataStore newView() {
        return new RaftMetadata(this);
    }

    @Override
    public ReplicationStats stats() {
        return stats;
    }

    @Override
    public List<ConsensusGroup> groups() {
        GroupPlan plan = keeper.plan();
        if (plan == null) {
            return List.of();
        }
        List<ConsensusGroup> groups = new ArrayList<>();
        for (GroupPlan.Group group : plan.groups()) {
            List<String> members = group.members().stream().map(NodeId::value).toList();
            Optional<RaftServer.Division> division = host.division(group.id());
            if (division.isEmpty()) {
                groups.add(new ConsensusGroup(group.id().toString(), members, false, "none", null, -1, -1, -1));
                continue;
            }
            groups.add(view(group.id().toString(), members, division.get()));
        }
        return groups;
    }

    // A division that is still starting has no role and no log yet: it shows as a member with nothing known.
    private static ConsensusGroup view(String id, List<String> members, RaftServer.Division division) {
        try {
            DivisionInfo info = division.getInfo();
            org.apache.ratis.proto.RaftProtos.RaftPeerRole role = info.getCurrentRole();
            RaftPeerId leader = info.getLeaderId();
            if (role != null) {
                return new ConsensusGroup(id, members, true, role.name().toLowerCase(java.util.Locale.ROOT),
                        leader == null ? null : leader.toString(), info.getCurrentTerm(),
                        division.getRaftLog().getLastCommittedIndex(), info.getLastAppliedIndex());
            }
        } catch (IllegalStateException starting) {
            // Below.
        }
        return new ConsensusGroup(id, members, true, "none", null, -1, -1, -1);
    }

    @Override
    public void close() {
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        for (AutoCloseable closeable : new AutoCloseable[] {keeper, host}) {
            try {
                closeable.close();
            } catch (Exception e) {
                failure.compareAndSet(null, new IllegalStateException("closing the Raft mode failed", e));
            }
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }
}
