package dev.hangar.cluster.raft;

import dev.hangar.cluster.Applied;
import dev.hangar.cluster.RaftSettings;
import dev.hangar.cluster.ReplicationStats;
import dev.hangar.cluster.RoundTrips;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.metadata.MetadataUnavailableException;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.state.Outcome;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.proto.RaftProtos.ReplicationLevel;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.jspecify.annotations.Nullable;

/**
 * The submission of commands in the Raft mode ({@link RaftReplication}): a command, stamped, goes to
 * the log of its bucket's group, through this node's division when it leads, else forwarded to the
 * leader; a settings change then waits for every member to have it committed while the other nodes
 * drop their copies of settings.
 */
final class RaftCommands {
    private final RaftHost host;
    private final GroupKeeper keeper;
    private final RaftSettings settings;
    private final GroupCalls calls;
    private final ReplicationStats stats;
    private final SettingsCopies copies;
    private final SettingsChanges changes;
    private final AtomicLong lastStamp = new AtomicLong();
    private volatile @Nullable ClusterLayout layout;

    RaftCommands(RaftHost host, GroupKeeper keeper, RaftSettings settings, GroupCalls calls, ReplicationStats stats,
            SettingsCopies copies, SettingsChanges changes) {
        this.host = host;
        this.keeper = keeper;
        this.settings = settings;
        this.calls = calls;
        this.stats = stats;
        this.copies = copies;
        this.changes = changes;
    }

    /** The cluster's current layout, whose nodes a settings change is announced to. */
    void layout(ClusterLayout layout) {
        this.layout = layout;
    }

    /** Submits {@code command} to its bucket's group; see {@link RaftReplication} for the rounds it costs. */
    <R> Applied<R> submit(MetadataCommand<R> command) {
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
                CompletableFuture<Void> told = CompletableFuture.runAsync(this::settingsChanged, RaftReads.FORWARDS);
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

    /** Drops this node's copies of settings and tells every other node to drop theirs ({@link SettingsChanges}). */
    private void settingsChanged() {
        copies.dropAll();
        ClusterLayout current = layout;
        if (current != null) {
            changes.announce(current);
        }
    }

    /**
     * After a settings change committed: waits, at most {@link RaftReplication#SETTINGS_WAIT}, until every member of
     * the group has it committed (a watch the leader answers), so that a member's settings read ({@link RaftReads})
     * sees it from then on; one more round. A member that is down or slow is not waited for longer: it catches up,
     * and reads through it may see the old settings meanwhile (as bucket settings may on S3 itself).
     */
    private int awaitEveryMember(GroupPlan.Group group, long index) {
        try {
            host.client(keeper.raftGroup(group)).async().watch(index, ReplicationLevel.ALL_COMMITTED)
                    .get(RaftReplication.SETTINGS_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            // Not every member has it yet: it will; see the method comment.
        }
        return 1;
    }

    // Versions a command adds are ordered by this stamp (and after the key's newest), so every member orders them
    // alike; strictly increasing on this node, from its clock in microseconds.
    private long nextStamp() {
        Instant now = Instant.now();
        long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
        return lastStamp.accumulateAndGet(micros, (last, clock) -> Math.max(last + 1, clock));
    }
}
