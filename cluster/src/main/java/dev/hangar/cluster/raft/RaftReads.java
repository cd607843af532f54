package dev.hangar.cluster.raft;

import dev.hangar.cluster.RaftSettings;
import dev.hangar.cluster.ReplicationStats;
import dev.hangar.cluster.RoundTrips;
import dev.hangar.metadata.MetadataUnavailableException;
import dev.hangar.metadata.query.QueryCodec;
import dev.hangar.metadata.query.ReadQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

/**
 * The reads of the Raft mode ({@link RaftReplication}): linearizable reads of one group or of every
 * group, from this node's replica behind a barrier or forwarded to the leader as the read mode says;
 * settings read from a member's own replica or from this node's copies ({@link SettingsCopies}); and
 * the catch-up of this node's replicas that tests of the whole-store views need.
 */
final class RaftReads {
    /** Forwarded reads wait for their answer on virtual threads, so that several groups are read at once. */
    static final Executor FORWARDS = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("hangar-raft-read-", 0).factory());

    private final RaftHost host;
    private final RaftSettings settings;
    private final GroupCalls calls;
    private final ReplicationStats stats;
    private final SettingsCopies copies;
    private volatile boolean linearizableSettings;

    RaftReads(RaftHost host, RaftSettings settings, GroupCalls calls, ReplicationStats stats) {
        this.host = host;
        this.settings = settings;
        this.calls = calls;
        this.stats = stats;
        this.copies = new SettingsCopies(SettingsCopies.TTL, System::nanoTime,
                key -> new ForwardedRead<>(key.query(), calls.groupOf(key.route())).await(), FORWARDS);
    }

    /** This node's copies of settings read from other groups' leaders. */
    SettingsCopies copies() {
        return copies;
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

    /**
     * A settings read (a bucket, its configuration, an access key) on a member: from its own replica once it has
     * applied every entry it knows committed, without a round. Settings changes wait for every member to have them
     * committed ({@link RaftCommands}), so a change acknowledged to a client is seen here afterwards; empty when
     * this node is not a member or cannot catch up within the wait, and the read is then linearizable.
     */
    private <T> Optional<T> readSettingsLocally(ReadQuery<T> query, GroupPlan.Group group) {
        Optional<RaftServer.Division> division = host.division(group.id());
        Optional<CommandStateMachine> machine = host.stateMachine(group.id());
        if (division.isEmpty() || machine.isEmpty() || !host.countsSelf(division.get())) {
            return Optional.empty();
        }
        long committed = division.get().getRaftLog().getLastCommittedIndex();
        long deadline = System.nanoTime() + RaftReplication.SETTINGS_WAIT.toNanos();
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
            } catch (CompletionException e) {
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
}
