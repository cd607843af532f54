package dev.hangar.cluster.raft;

import dev.hangar.cluster.Applied;
import dev.hangar.cluster.ConsensusGroup;
import dev.hangar.cluster.RaftSettings;
import dev.hangar.cluster.Replication;
import dev.hangar.cluster.ReplicationMode;
import dev.hangar.cluster.ReplicationStats;
import dev.hangar.cluster.RoundTrips;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.rpc.ClusterSecret;
import dev.hangar.cluster.rpc.NetworkFaults;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcServer;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.MetadataUnavailableException;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.command.OutcomeCodec;
import dev.hangar.metadata.query.QueryCodec;
import dev.hangar.metadata.query.ReadQuery;
import dev.hangar.metadata.rocksdb.RocksDbConfig;
import dev.hangar.metadata.state.Outcome;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.proto.RaftProtos.ReplicationLevel;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

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
 */
public final class RaftReplication implements Replication {
    /** How long a settings change waits for every member, and a settings read for its member to catch up. */
    static final Duration SETTINGS_WAIT = Duration.ofSeconds(1);
    /** Forwarded reads wait for their answer on virtual threads, so that several groups are read at once. */
    private static final java.util.concurrent.Executor FORWARDS = java.util.concurrent.Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("hangar-raft-read-", 0).factory());

    private final RaftHost host;
    private final GroupKeeper keeper;
    private final RaftSettings settings;
    private final GroupCalls calls;
    private final ReplicationStats stats = new ReplicationStats(() -> 0);
    private final AtomicLong lastStamp = new AtomicLong();
    private volatile boolean linearizableSettings;
    private final RaftMetadata state;
    private final SettingsCopies copies;
    private final SettingsChanges changes;
    private volatile @org.jspecify.annotations.Nullable ClusterLayout layout;

    private RaftReplication(RaftHost host, GroupKeeper keeper, RaftSettings settings, SettingsChanges changes) {
        this.host = host;
        this.keeper = keeper;
        this.settings = settings;
        this.calls = new GroupCalls(host, keeper, settings);
        this.state = new RaftMetadata(this);
        this.changes = changes;
        this.copies = new SettingsCopies(SettingsCopies.TTL, System::nanoTime,
                key -> new ForwardedRead<>(key.query(), calls.groupOf(key.route())).await(), FORWARDS);
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
            SettingsChanges.serve(server, replication.copies);
            return replication;
        } catch (RuntimeException e) {
            host.close();
            throw e;
        }
    }

    /** Takes the cluster's current layout: the first one forms the groups, later ones change their members. */
    public void layout(ClusterLayout layout) {
        layout.roles().forEach(role -> host.faults().register(role.id()));
        this.layout = layout;
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
        int[] rounds = {0};
        try {
            GroupPlan.Group group = calls.groupOf(Routes.of(command));
            Message message = Message.valueOf(ByteString.copyFrom(new LogEntry(nextStamp(), command).encode()));
            RaftClientReply reply;
            try {
                reply = write(group, message, rounds);
            } catch (RuntimeException e) {
                if (Settings.changes(command)) {
                    // It may still commit: no node should keep using what it replaced.
                    settingsChanged();
                }
                throw e;
            }
            Outcome<R> outcome = CommandReply.decode(command, reply.getMessage().getContent().toByteArray());
            if (Settings.changes(command)) {
                // The members' wait and the other nodes' drop of their copies, at once: one round.
                CompletableFuture<Void> told = CompletableFuture.runAsync(this::settingsChanged, FORWARDS);
                rounds[0] += awaitEveryMember(group, reply.getLogIndex());
                told.join();
            }
            return new Applied<>(outcome, true, rounds[0]);
        } finally {
            RoundTrips.current().addMetadata(rounds[0]);
            stats.recordCommand(command.getClass().getSimpleName(), rounds[0]);
        }
    }

    // Through the local division when it leads (no hop: the append is the one round), else forwarded to the
    // leader. Only a refusal that says the entry was not appended (not the leader, leader not ready) is forwarded;
    // a local attempt that failed otherwise may still commit, so it is not sent a second time.
    private RaftClientReply write(GroupPlan.Group group, Message message, int[] rounds) {
        long deadline = System.nanoTime() + settings.requestDeadline().toNanos();
        Optional<RaftServer.Division> division = host.division(group.id());
        if (division.isPresent() && division.get().getInfo().isLeader()) {
            rounds[0] = 1;
            try {
                RaftClientReply reply = calls.await(host.submitLocally(group.id(), message,
                        RaftClientRequest.writeRequestType()), deadline, group);
                if (reply.isSuccess()) {
                    return reply;
                }
                throw GroupCalls.failed(group, reply.getException());
            } catch (MetadataUnavailableException e) {
                if (!GroupCalls.neverAppended(GroupCalls.rootRaftFailure(e))) {
                    throw e;
                }
            }
        }
        rounds[0] = 2;
        return calls.forward(group, message, deadline, false);
    }

    /**
     * Answers {@code query} from the group of {@code route}, linearizably: on a member, from its own replica once a
     * barrier says it holds every command committed before the read began; elsewhere (and on a follower in the
     * {@code leader} read mode), from the leader, to which the encoded query is forwarded.
     */
    <T> T read(ReadQuery<T> query, String route) {
        int rounds = 0;
        try {
            GroupPlan.Group group = calls.groupOf(route);
            if (Settings.isRead(query) && !linearizableSettings) {
                Optional<T> local = readSettingsLocally(query, group);
                if (local.isPresent()) {
                    return local.get();
                }
                if (!group.hasMember(host.self())) {
                    SettingsCopies.Key key = new SettingsCopies.Key(query, route);
                    Optional<T> copy = copies.get(key);
                    if (copy.isPresent()) {
                        return copy.get();
                    }
                    long epoch = copies.epoch();
                    GroupRead<T> read = new ForwardedRead<>(query, group);
                    T result = read.await();
                    rounds = read.rounds();
                    copies.keep(key, result, epoch);
                    return result;
                }
            }
            GroupRead<T> read = startRead(query, group);
            T result = read.await();
            rounds = read.rounds();
            return result;
        } finally {
            RoundTrips.current().addMetadata(rounds);
            stats.recordRead(kind(query), rounds);
        }
    }

    /** Drops this node's copies of settings and tells every other node to drop theirs ({@link SettingsChanges}). */
    private void settingsChanged() {
        copies.dropAll();
        ClusterLayout current = layout;
        if (current != null) {
            changes.announce(current);
        }
    }

    /**
     * After a settings change committed: waits, at most {@link #SETTINGS_WAIT}, until every member of the group has
     * it committed (a watch the leader answers), so that a member's settings read ({@link #readSettingsLocally})
     * sees it from then on; one more round. A member that is down or slow is not waited for longer: it catches up,
     * and reads through it may see the old settings meanwhile (as bucket settings may on S3 itself).
     */
    private int awaitEveryMember(GroupPlan.Group group, long index) {
        try {
            host.client(keeper.raftGroup(group)).async().watch(index, ReplicationLevel.ALL_COMMITTED)
                    .get(SETTINGS_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            // Not every member has it yet: it will; see the method comment.
        }
        return 1;
    }

    /**
     * A settings read (a bucket, its configuration, an access key) on a member: from its own replica once it has
     * applied every entry it knows committed, without a round. Settings changes wait for every member to have them
     * committed ({@link #awaitEveryMember}), so a change acknowledged to a client is seen here afterwards; empty when
     * this node is not a member or cannot catch up within the wait, and the read is then linearizable.
     */
    private <T> Optional<T> readSettingsLocally(ReadQuery<T> query, GroupPlan.Group group) {
        Optional<RaftServer.Division> division = host.division(group.id());
        Optional<CommandStateMachine> machine = host.stateMachine(group.id());
        if (division.isEmpty() || machine.isEmpty() || !host.countsSelf(division.get())) {
            return Optional.empty();
        }
        long committed = division.get().getRaftLog().getLastCommittedIndex();
        long deadline = System.nanoTime() + SETTINGS_WAIT.toNanos();
        while (division.get().getInfo().getLastAppliedIndex() < committed) {
            if (System.nanoTime() > deadline) {
                return Optional.empty();
            }
            Thread.onSpinWait();
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        return machine.get().openStore().map(query::runOn);
    }

    /**
     * Brings this node's replicas up to every command committed before the call: a ReadIndex barrier on each group
     * it is a member of, in every read mode (a follower in lease mode would otherwise forward its reads and never
     * wait for its own replica). For tests of the whole-store views (statistics, block references), which read this
     * node's replicas only.
     */
    void catchUp() {
        GroupPlan plan = calls.requirePlan();
        for (GroupPlan.Group group : plan.groups()) {
            if (group.hasMember(host.self())) {
                calls.awaitDivision(group);
                host.stateMachine(group.id()).ifPresent(machine ->
                        new LocalRead<>(new ReadQuery.ListBuckets(), group, machine).await());
            }
        }
    }

    /** Whether settings reads are linearizable too (tests of the contract), instead of read from a member's replica. */
    void linearizableSettings(boolean linearizable) {
        this.linearizableSettings = linearizable;
    }

    /**
     * Answers {@code query} from every group at once (the read costs the rounds of the slowest), for reads that name
     * no bucket; the answers come in group order.
     */
    <T> List<T> readAll(ReadQuery<T> query) {
        int rounds = 0;
        try {
            List<GroupRead<T>> reads = new ArrayList<>();
            for (GroupPlan.Group group : calls.requirePlan().groups()) {
                if (group.hasMember(host.self())) {
                    calls.awaitDivision(group);
                }
                reads.add(startRead(query, group));
            }
            List<T> results = new ArrayList<>();
            for (GroupRead<T> read : reads) {
                results.add(read.await());
                rounds = Math.max(rounds, read.rounds());
            }
            return results;
        } finally {
            RoundTrips.current().addMetadata(rounds);
            stats.recordRead(kind(query), rounds);
        }
    }

    /** The read kind the stats count: the query's method name ({@code getObject}, {@code listObjects}, ...). */
    private static String kind(ReadQuery<?> query) {
        String name = query.getClass().getSimpleName();
        return Character.toLowerCase(name.charAt(0)) + name.substring(1);
    }

    // Where a read is answered. The leader answers from its own replica (under its lease, or after a heartbeat round
    // in read-index mode). A follower in read-index mode asks the leader for its commit index and answers once it
    // has applied that far: the leader's confirming heartbeat also tells it the commit index. A follower in lease
    // mode forwards the read instead: the leader answers at once under its lease, whereas a local ReadIndex would
    // wait for the next heartbeat (half an election timeout) to learn the index it must apply up to. In leader
    // mode, and on a node outside the group, the read goes to the leader too.
    private <T> GroupRead<T> startRead(ReadQuery<T> query, GroupPlan.Group group) {
        Optional<CommandStateMachine> machine = host.stateMachine(group.id());
        boolean leader = host.division(group.id()).map(division -> division.getInfo().isLeader()).orElse(false);
        if (machine.isPresent() && group.hasMember(host.self())
                && (leader || settings.reads() == RaftSettings.Reads.READ_INDEX)) {
            return new LocalRead<>(query, group, machine.get());
        }
        return new ForwardedRead<>(query, group);
    }

    /** A read of one group under way. */
    private sealed interface GroupRead<T> permits LocalRead, ForwardedRead {
        T await();

        /** The rounds it cost, once {@link #await} returned. */
        int rounds();
    }

    /**
     * A read of this node's replica behind a barrier on its division. A barrier that fails because the group has no
     * leader at the moment (an election, or none held yet) is tried again until the deadline.
     */
    private final class LocalRead<T> implements GroupRead<T> {
        private final ReadQuery<T> query;
        private final GroupPlan.Group group;
        private final CommandStateMachine machine;
        private final long deadline = System.nanoTime() + settings.requestDeadline().toNanos();
        private CompletableFuture<RaftClientReply> reply;
        private int rounds;

        LocalRead(ReadQuery<T> query, GroupPlan.Group group, CommandStateMachine machine) {
            this.query = query;
            this.group = group;
            this.machine = machine;
            send();
        }

        private void send() {
            boolean leader = host.division(group.id()).map(division -> division.getInfo().isLeader()).orElse(false);
            rounds += leader && settings.reads() != RaftSettings.Reads.READ_INDEX ? 0 : 1;
            reply = host.submitLocally(group.id(), Message.EMPTY, RaftClientRequest.readRequestType());
        }

        @Override
        public int rounds() {
            return rounds;
        }

        @Override
        public T await() {
            while (true) {
                try {
                    RaftClientReply answer = calls.await(reply, deadline, group);
                    if (answer.isSuccess()) {
                        return query.runOn(machine.store());
                    }
                    throw GroupCalls.failed(group, answer.getException());
                } catch (MetadataUnavailableException e) {
                    if (!GroupCalls.leaderless(GroupCalls.rootRaftFailure(e)) || System.nanoTime() > deadline) {
                        throw e;
                    }
                }
                GroupCalls.pause(group);
                send();
            }
        }
    }

    /** A read sent, encoded, to the group's leader (from a follower, or from a node outside the group). */
    private final class ForwardedRead<T> implements GroupRead<T> {
        private final ReadQuery<T> query;
        private final CompletableFuture<T> answer;

        ForwardedRead(ReadQuery<T> query, GroupPlan.Group group) {
            this.query = query;
            long deadline = System.nanoTime() + settings.requestDeadline().toNanos();
            Message message = Message.valueOf(ByteString.copyFrom(QueryCodec.encode(query)));
            this.answer = CompletableFuture.supplyAsync(() -> QueryCodec.decodeResult(query,
                    calls.forward(group, message, deadline, true).getMessage().getContent().toByteArray()), FORWARDS);
        }

        @Override
        public T await() {
            try {
                return answer.join();
            } catch (java.util.concurrent.CompletionException e) {
                if (e.getCause() instanceof RuntimeException cause) {
                    throw cause;
                }
                throw e;
            }
        }

        // One round to the leader; with read-index, the leader's own round to confirm it leads.
        @Override
        public int rounds() {
            return settings.reads() == RaftSettings.Reads.READ_INDEX ? 2 : 1;
        }
    }

    // Versions a command adds are ordered by this stamp (and after the key's newest), so every member orders them
    // alike; strictly increasing on this node, from its clock in microseconds.
    private long nextStamp() {
        Instant now = Instant.now();
        long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
        return lastStamp.accumulateAndGet(micros, (last, clock) -> Math.max(last + 1, clock));
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
