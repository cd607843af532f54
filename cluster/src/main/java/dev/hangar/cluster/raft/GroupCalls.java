package dev.hangar.cluster.raft;

import dev.hangar.cluster.RaftSettings;
import dev.hangar.metadata.MetadataUnavailableException;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.exceptions.AlreadyClosedException;
import org.apache.ratis.protocol.exceptions.GroupMismatchException;
import org.apache.ratis.protocol.exceptions.LeaderSteppingDownException;
import org.apache.ratis.protocol.exceptions.NotLeaderException;
import org.apache.ratis.protocol.exceptions.RaftException;
import org.apache.ratis.protocol.exceptions.ReadIndexException;
import org.apache.ratis.protocol.exceptions.ServerNotReadyException;

/**
 * How this node reaches its Raft groups for {@link RaftReplication}: which group a route belongs to (waiting for this
 * node's own division of it right after start), waiting for a reply within a deadline, forwarding to the leader,
 * and telling the failures that may be retried (nothing was appended, no leader yet) from those that may not.
 */
final class GroupCalls {
    /** How long a member waits for its own division of a group to be added after the groups form. */
    static final Duration DIVISION_WAIT = Duration.ofSeconds(10);
    /** How long to wait before asking a group without a leader again. */
    static final Duration RETRY_PAUSE = Duration.ofMillis(50);

    private final RaftHost host;
    private final GroupKeeper keeper;
    private final RaftSettings settings;

    GroupCalls(RaftHost host, GroupKeeper keeper, RaftSettings settings) {
        this.host = host;
        this.keeper = keeper;
        this.settings = settings;
    }

    /**
     * Sends a request to the group's leader through this node's client of the group, which finds the leader and
     * retries under one call id (the group's retry cache applies a retried write once). A failure that says no
     * member appended the request (the member asked has not added the group yet, the client was closed by an
     * earlier failure, no leader is ready) is tried again, as a new request, until the deadline; any other failure
     * (a timeout) may hide an applied command, so it is not. The client's own retries stop at the deadline too
     * ({@link RaftHost#send}): a node cut off from the leader fails within the deadline and one attempt's timeout.
     */
    RaftClientReply forward(GroupPlan.Group group, Message message, long deadline, boolean read) {
        while (true) {
            Throwable failure;
            try {
                RaftClient client = host.client(keeper.raftGroup(group));
                RaftClientReply reply = RaftHost.send(deadline,
                        () -> read ? client.io().sendReadOnly(message) : client.io().send(message));
                if (reply.isSuccess()) {
                    return reply;
                }
                failure = reply.getException();
            } catch (IOException | RuntimeException e) {
                failure = e;
            }
            Throwable cause = rootRaftFailure(failure);
            if (cause instanceof AlreadyClosedException) {
                host.dropClient(group.id());
            }
            if (!neverAppended(cause) || System.nanoTime() > deadline) {
                throw failed(group, failure);
            }
            pause(group);
        }
    }

    /** The innermost Ratis exception of a failure (clients wrap them), or the failure itself. */
    static Throwable rootRaftFailure(Throwable failure) {
        Throwable found = failure;
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RaftException) {
                found = cause;
            }
        }
        return found;
    }

    static boolean neverAppended(Throwable failure) {
        return failure instanceof GroupMismatchException || failure instanceof AlreadyClosedException
                || failure instanceof NotLeaderException || failure instanceof ServerNotReadyException
                || failure instanceof LeaderSteppingDownException || failure instanceof ReadIndexException;
    }

    /** A failure that only says the group has no (known, ready) leader right now. */
    static boolean leaderless(Throwable failure) {
        return failure instanceof ReadIndexException || failure instanceof ServerNotReadyException
                || (failure instanceof NotLeaderException notLeader && notLeader.getSuggestedLeader() == null);
    }

    static void pause(GroupPlan.Group group) {
        try {
            Thread.sleep(RETRY_PAUSE.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MetadataUnavailableException("interrupted while waiting for Raft group " + group.id(), e);
        }
    }

    GroupPlan.Group groupOf(String route) {
        GroupPlan.Group group = requirePlan().groupOf(route);
        if (group.hasMember(host.self())) {
            awaitDivision(group);
        }
        return group;
    }

    GroupPlan requirePlan() {
        GroupPlan plan = keeper.plan();
        if (plan == null) {
            throw new MetadataUnavailableException("the cluster has no layout yet, so its Raft groups are not formed");
        }
        return plan;
    }

    void awaitDivision(GroupPlan.Group group) {
        long deadline = System.nanoTime() + DIVISION_WAIT.toNanos();
        while (host.stateMachine(group.id()).flatMap(CommandStateMachine::openStore).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new MetadataUnavailableException("this node has not joined its Raft group " + group.id()
                        + " yet: a member's Raft address may be unknown");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MetadataUnavailableException("interrupted while waiting for Raft group " + group.id(), e);
            }
        }
    }

    RaftClientReply await(CompletableFuture<RaftClientReply> reply, long deadline, GroupPlan.Group group) {
        try {
            return reply.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            reply.cancel(false);
            throw new MetadataUnavailableException("Raft group " + group.id() + " did not answer within "
                    + settings.requestDeadline() + "; the command may or may not take effect", e);
        } catch (ExecutionException e) {
            throw failed(group, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MetadataUnavailableException("interrupted while waiting for Raft group " + group.id(), e);
        }
    }


    static MetadataUnavailableException failed(GroupPlan.Group group, Throwable failure) {
        return new MetadataUnavailableException("Raft group " + group.id() + " (members " + group.members()
                + ") failed: " + failure, failure);
    }
}
