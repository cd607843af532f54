package dev.hangar.cluster.raft;

import dev.hangar.cluster.RaftSettings;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.rpc.NetworkFaults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.GroupManagementRequest;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.SetConfigurationRequest;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachine;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

/**
 * This node's Ratis server, which hosts one division per Raft group the node is a member of, and the clients it
 * forwards through to groups whose leader is elsewhere. Built and started on the thread that starts the node (the
 * main thread in the application): Ratis caches the context class loader of the thread that first uses it.
 */
final class RaftHost implements AutoCloseable {
    /** How long a forwarded request may take per attempt, and how often it is retried (leader changes). */
    static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(3);
    /** How often a request is tried when no deadline bounds it (every forward has one: see {@link #send}). */
    private static final int ATTEMPTS = 100;
    private static final Duration RETRY_SLEEP = Duration.ofMillis(100);

    /** The deadline ({@link System#nanoTime}) of the forward this thread is sending, if any: see {@link #send}. */
    private static final ThreadLocal<long[]> DEADLINE = new ThreadLocal<>();

    private final NodeId self;
    private final RaftServer server;
    private final RaftProperties clientProperties;
    private final Parameters parameters;
    private final RaftFaults faults;
    /** The id of requests submitted in process: a random one, never seen on the network. */
    private final ClientId clientId = ClientId.randomId();
    /** The id of the clients that forward to other nodes, which names this node to their servers' fault hook. */
    private final ClientId forwardingId;
    private final AtomicLong callIds = new AtomicLong();
    private final Map<RaftGroupId, RaftClient> clients = new ConcurrentHashMap<>();

    private RaftHost(NodeId self, RaftServer server, RaftProperties clientProperties, Parameters parameters,
            RaftFaults faults) {
        this.self = self;
        this.server = server;
        this.clientProperties = clientProperties;
        this.parameters = parameters;
        this.faults = faults;
        this.forwardingId = RaftFaults.clientId(self);
    }

    /**
     * Starts the server on {@code settings}' address, its logs under {@code folder}, with the divisions found there
     * (a restart recovers its groups) and a {@link CommandStateMachine} from {@code stateMachines} for each.
     *
     * @param syncedLog whether the Raft log is synced before an entry is acknowledged ({@code hangar.storage.sync
     *     always}); otherwise it is flushed in the background and a power loss may lose the newest entries of a
     *     member (a process crash loses nothing: the entries are in the page cache)
     * @param faults the node's fault hook ({@code ClusterControl.faults()}), which then applies to its Raft traffic
     *     too, through a {@link RaftFaults} interceptor on the server
     */
    static RaftHost start(NodeId self, RaftSettings settings, Path folder, boolean syncedLog, Parameters parameters,
            NetworkFaults faults, Supplier<StateMachine> stateMachines) {
        RaftProperties properties = serverProperties(settings, folder, syncedLog);
        RaftFaults hook = new RaftFaults(self, faults);
        GrpcConfigKeys.Server.setServicesCustomizer(parameters, hook);
        try {
            RaftServer server = RaftServer.newBuilder()
                    .setServerId(peerId(self))
                    .setProperties(properties)
                    .setParameters(parameters)
                    .setStateMachineRegistry(group -> stateMachines.get())
                    .setOption(RaftStorage.StartupOption.RECOVER)
                    .build();
            server.start();
            return new RaftHost(self, server, clientProperties(), parameters, hook);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the Raft server on port " + settings.port(), e);
        }
    }

    static RaftProperties serverProperties(RaftSettings settings, Path folder, boolean syncedLog) {
        RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.GRPC);
        GrpcConfigKeys.Server.setHost(properties, settings.bindAddress());
        GrpcConfigKeys.Server.setPort(properties, settings.port());
        RaftServerConfigKeys.setStorageDir(properties, List.of(folder.toFile()));
        long election = settings.electionTimeout().toMillis();
        RaftServerConfigKeys.Rpc.setTimeoutMin(properties, TimeDuration.valueOf(election, TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(properties, TimeDuration.valueOf(2 * election, TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Read.setOption(properties, settings.reads() == RaftSettings.Reads.LEADER
                ? RaftServerConfigKeys.Read.Option.DEFAULT : RaftServerConfigKeys.Read.Option.LINEARIZABLE);
        RaftServerConfigKeys.Read.setLeaderLeaseEnabled(properties, settings.reads() == RaftSettings.Reads.LEASE);
        // Small divisions: metadata entries are small (inline objects included), and a node hosts several groups.
        RaftServerConfigKeys.Log.setSegmentSizeMax(properties, SizeInBytes.valueOf(settings.logSegmentBytes()));
        long preallocated = Math.min(1L << 20, settings.logSegmentBytes());
        RaftServerConfigKeys.Log.setPreallocatedSize(properties, SizeInBytes.valueOf(preallocated));
        RaftServerConfigKeys.Log.setWriteBufferSize(properties, SizeInBytes.valueOf("2MB"));
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(properties, SizeInBytes.valueOf("1MB"));
        RaftServerConfigKeys.Log.setUnsafeFlushEnabled(properties, !syncedLog);
        // A follower appends each request's entries itself, in order, against its log (Ratis' behaviour before
        // 3.2.0, and its synchronous path since 3.3.0), not through the "compose" queue that 3.3.0 enables by
        // default. That queue treats a request whose entries start at the index of an append still being written
        // as a duplicate: it answers SUCCESS up to the new request's last index once the earlier, shorter append
        // is written, and never writes the rest. A leader that knows nothing of a follower (new in its term) sends
        // two heartbeats, gets INCONSISTENCY twice, and sends its log twice from one index; on a slow follower the
        // second copy, longer, arrives while the first is being written. The leader then holds a match index past
        // the follower's log and never sends the missing entries (nextIndex never goes below matchIndex + 1): seen
        // in RaftFailoverIT as the restarted former leader stuck in the group it had led, with the leader logging
        // "setNextIndex ... -> <matchIndex + 1>" while the follower answers INCONSISTENCY with a lower nextIndex.
        RaftServerConfigKeys.Log.setAppendEntriesComposeEnabled(properties, false);
        // A snapshot (a checkpoint of the member's store) every so many entries; the log before it is purged by
        // whole segments, and a member behind the purged part is sent the snapshot (CommandStateMachine).
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(properties, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(properties, settings.snapshotEntries());
        RaftServerConfigKeys.Snapshot.setCreationGap(properties, settings.snapshotEntries());
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(properties, true);
        RaftServerConfigKeys.Log.setPurgeGap(properties, (int) Math.min(Integer.MAX_VALUE, settings.snapshotEntries()));
        return properties;
    }

    private static RaftProperties clientProperties() {
        RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.GRPC);
        RaftClientConfigKeys.Rpc.setRequestTimeout(properties,
                TimeDuration.valueOf(ATTEMPT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        return properties;
    }

    static RaftPeerId peerId(NodeId node) {
        return RaftPeerId.valueOf(node.value());
    }

    NodeId self() {
        return self;
    }

    /** The fault hook on this node's Raft server. */
    RaftFaults faults() {
        return faults;
    }

    /** The address the Raft server is bound to (its port, when 0 was configured). */
    InetSocketAddress address() {
        return server.getServerRpc().getInetSocketAddress();
    }

    boolean hasGroup(RaftGroupId id) {
        for (RaftGroupId held : server.getGroupIds()) {
            if (held.equals(id)) {
                return true;
            }
        }
        return false;
    }

    /** Adds this node's division of {@code group}, unless it has one; the other members add theirs themselves. */
    void addGroup(RaftGroup group) throws IOException {
        if (hasGroup(group.getGroupId())) {
            return;
        }
        RaftClientReply reply = server.groupManagement(
                GroupManagementRequest.newAdd(clientId, server.getId(), callIds.incrementAndGet(), group));
        if (!reply.isSuccess() && !hasGroup(group.getGroupId())) {
            throw new IOException("cannot add Raft group " + group.getGroupId() + ": " + reply.getException());
        }
    }

    /**
     * Removes this node's division of a group whose members no longer include it, deleting its log and store: the
     * group's members have its commands.
     */
    void removeGroup(RaftGroupId id) throws IOException {
        dropClient(id);
        RaftClientReply reply = server.groupManagement(GroupManagementRequest.newRemove(
                clientId, server.getId(), callIds.incrementAndGet(), id, true, false));
        if (!reply.isSuccess() && hasGroup(id)) {
            throw new IOException("cannot remove Raft group " + id + ": " + reply.getException());
        }
    }

    /**
     * Asks this node's division, which leads the group, to change its members from {@code current} to {@code
     * target}: Ratis first brings new members up to date, then commits the joint and the new membership in the log.
     * Compare-and-set, so a change made in between makes this one fail instead of undoing it.
     */
    CompletableFuture<RaftClientReply> setMembers(RaftGroupId id, List<RaftPeer> current, List<RaftPeer> target) {
        SetConfigurationRequest.Arguments arguments = SetConfigurationRequest.Arguments.newBuilder()
                .setServersInCurrentConf(current)
                .setServersInNewConf(target)
                .setMode(SetConfigurationRequest.Mode.COMPARE_AND_SET)
                .build();
        try {
            return server.setConfigurationAsync(new SetConfigurationRequest(
                    clientId, server.getId(), id, callIds.incrementAndGet(), arguments));
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Whether the division's membership (its latest, from its log) counts this node in. A new member is not until
     * the leader has brought it up to date and logged the membership with it, and its log then holds every command
     * committed before; a member being removed is not either.
     */
    boolean countsSelf(RaftServer.Division division) {
        return division.getRaftConf().getCurrentPeers().stream().anyMatch(peer -> peer.getId().equals(server.getId()));
    }

    /** This node's division of a group, if it is a member and has added it. */
    Optional<RaftServer.Division> division(RaftGroupId id) {
        if (!hasGroup(id)) {
            return Optional.empty();
        }
        try {
            return Optional.of(server.getDivision(id));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The state machine of this node's division of a group. */
    Optional<CommandStateMachine> stateMachine(RaftGroupId id) {
        return division(id).map(division -> (CommandStateMachine) division.getStateMachine());
    }

    /** Submits a request to this node's own division, in process: no network hop. */
    CompletableFuture<RaftClientReply> submitLocally(RaftGroupId group, Message message, RaftClientRequest.Type type) {
        RaftClientRequest request = RaftClientRequest.newBuilder()
                .setClientId(clientId)
                .setServerId(server.getId())
                .setGroupId(group)
                .setCallId(callIds.incrementAndGet())
                .setMessage(message)
                .setType(type)
                .build();
        try {
            return server.submitClientRequestAsync(request);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * The client that sends to {@code group}'s leader from this node, finding it and following its changes; it
     * retries a request under the same call id, which the group's retry cache recognises, so a retried write is
     * applied once. Every group's client has this node's {@linkplain RaftFaults#clientId forwarding id}: call ids
     * are unique in the process, and retry caches are per group.
     */
    RaftClient client(RaftGroup group) {
        return clients.computeIfAbsent(group.getGroupId(), id -> RaftClient.newBuilder()
                .setProperties(clientProperties)
                .setParameters(parameters)
                .setRaftGroup(group)
                .setClientId(forwardingId)
                .setRetryPolicy(new UntilDeadline(RetryPolicies.retryUpToMaximumCountWithFixedSleep(ATTEMPTS,
                        TimeDuration.valueOf(RETRY_SLEEP.toMillis(), TimeUnit.MILLISECONDS)),
                        RetryPolicies.retryForeverWithSleep(
                                TimeDuration.valueOf(RETRY_SLEEP.toMillis(), TimeUnit.MILLISECONDS))))
                .build());
    }

    /** A blocking request of a client of {@link #client}. */
    @FunctionalInterface
    interface Request {
        RaftClientReply send() throws IOException;
    }

    /**
     * Sends {@code request} on this thread, its client retrying (every {@link #RETRY_SLEEP}) until {@code deadline}
     * ({@link System#nanoTime}), however many attempts that takes (an election at start may refuse a hundred fast):
     * an attempt under way then still ends by its own timeout ({@link #ATTEMPT_TIMEOUT}), after which the client
     * gives up with the last failure instead of trying again.
     */
    static RaftClientReply send(long deadline, Request request) throws IOException {
        long[] previous = DEADLINE.get();
        DEADLINE.set(new long[] {deadline});
        try {
            return request.send();
        } finally {
            if (previous == null) {
                DEADLINE.remove();
            } else {
                DEADLINE.set(previous);
            }
        }
    }

    /**
     * The clients' retry policy: while a request sent with a deadline ({@link #send}) is before it, {@code
     * untilDeadline}'s (retry after a pause), then none; {@code bounded}'s for a request sent without one. A blocking
     * client runs its retries on the sending thread, where that deadline is.
     */
    private record UntilDeadline(RetryPolicy bounded, RetryPolicy untilDeadline) implements RetryPolicy {
        @Override
        public Action handleAttemptFailure(Event event) {
            long[] deadline = DEADLINE.get();
            if (deadline == null) {
                return bounded.handleAttemptFailure(event);
            }
            if (System.nanoTime() + RETRY_SLEEP.toNanos() - deadline[0] > 0) {
                return NO_RETRY_ACTION;
            }
            return untilDeadline.handleAttemptFailure(event);
        }
    }

    /** Forgets the client of a group whose members changed. */
    void dropClient(RaftGroupId id) {
        RaftClient client = clients.remove(id);
        if (client != null) {
            closeQuietly(client);
        }
    }

    @Override
    public void close() {
        clients.values().forEach(RaftHost::closeQuietly);
        clients.clear();
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException("closing the Raft server failed", e);
        }
    }

    private static void closeQuietly(RaftClient client) {
        try {
            client.close();
        } catch (IOException e) {
            // A client holds only connections; nothing is lost if closing one fails.
        }
    }
}
