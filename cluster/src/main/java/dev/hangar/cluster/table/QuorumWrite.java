package dev.hangar.cluster.table;

import dev.hangar.cluster.RoundTrips;
import dev.hangar.cluster.layout.NodeId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The write path of a {@link ReplicatedTable}: entries of one partition key sent to every replica
 * and acknowledged at the write quorum, this node's own copy written last (see {@link
 * ReplicatedTable#put(Entry)} for why), as a merge or as a swap that answers what each replica held.
 */
final class QuorumWrite {
    private static final Wire.SwapReply NONE = new Wire.SwapReply(Optional.empty(), List.of());

    private final Replicas replicas;

    QuorumWrite(Replicas replicas) {
        this.replicas = replicas;
    }

    /**
     * What {@link #replicate} got: the replicas of the partition key, the answers that made the
     * quorum, and the call to every replica (this node's local write included), the others still
     * running or done.
     */
    record Replicated(List<NodeId> replicas, Map<NodeId, Wire.SwapReply> answers,
            Map<NodeId, CompletableFuture<Wire.SwapReply>> calls) {}

    /**
     * Writes {@code entries}, all of one partition key, to its replicas (see {@link
     * ReplicatedTable#put(Entry)}); with {@code swap}, the one entry is swapped in and each
     * acknowledging replica answers what it held before and at the {@code peek} keys. Completes with
     * those answers (empty ones for a merge), once the quorum acknowledged and this node's own
     * write, if it is a replica, is done.
     */
    CompletableFuture<Replicated> replicate(List<Entry> entries, boolean swap, List<byte[]> peek,
            RoundTrips.Tally tally) {
        HybridLogicalClock clock = replicas.clock();
        NodeId self = replicas.self();
        int writeQuorum = replicas.config().writeQuorum();
        entries.forEach(entry -> clock.update(entry.timestamp()));
        byte[] partitionKey = entries.getFirst().partitionKey();
        List<NodeId> targets = replicas.replicasOf(partitionKey);
        byte[] payload = swap ? Wire.swapRequest(entries.getFirst(), peek) : Wire.entries(entries);
        String method = swap ? "swap" : "merge";
        boolean selfIsReplica = targets.contains(self);
        int remoteAcksFirst = selfIsReplica ? Math.max(0, Math.min(writeQuorum, targets.size()) - 1) : 0;
        AtomicInteger remoteAcks = new AtomicInteger();
        CompletableFuture<Void> enoughRemote = new CompletableFuture<>();
        if (remoteAcksFirst == 0) {
            enoughRemote.complete(null);
        }
        CompletableFuture<Wire.SwapReply> localWrite = selfIsReplica
                ? enoughRemote.thenApplyAsync(ready -> {
                    entries.forEach(entry -> clock.update(entry.timestamp()));
                    if (swap) {
                        return swapLocally(entries.getFirst(), peek);
                    }
                    entries.forEach(replicas.local()::merge);
                    return NONE;
                }, replicas.localExecutor())
                : CompletableFuture.completedFuture(NONE);
        Map<NodeId, CompletableFuture<Wire.SwapReply>> calls = new ConcurrentHashMap<>();
        CompletableFuture<Map<NodeId, Wire.SwapReply>> quorum = QuorumCall.<Wire.SwapReply>run("put", targets,
                        writeQuorum, targets.size(), self, node -> {
                            CompletableFuture<Wire.SwapReply> answer = node.equals(self) ? localWrite
                                    : replicas.call(node, method, payload).thenApply(reply -> {
                                        if (remoteAcks.incrementAndGet() >= remoteAcksFirst) {
                                            enoughRemote.complete(null);
                                        }
                                        return swap ? replicas.checked(Wire.swapReply(reply)) : NONE;
                                    });
                            calls.put(node, answer);
                            return answer;
                        })
                .thenApply(answers -> {
                    replicas.rounds().record("put", answers.rounds());
                    tally.addMetadata(answers.rounds());
                    return answers.byNode();
                });
        // thenCompose, not thenCombine: a failed quorum fails the put at once, while the local write,
        // which waits for remote acks that never came, never completes. A failed local write is one
        // missing ack like any other: the quorum decides, not this node.
        return quorum.thenCompose(answers -> localWrite.exceptionally(failure -> NONE)
                .thenApply(local -> new Replicated(targets, answers, calls)));
    }

    /** The swap on this node's copy: what it held for the entry's key, and at the peeked keys. */
    Wire.SwapReply swapLocally(Entry entry, List<byte[]> peek) {
        Optional<Entry> previous = replicas.local().swap(entry);
        List<Optional<Entry>> peeked = new ArrayList<>(peek.size());
        for (byte[] sortKey : peek) {
            peeked.add(replicas.local().get(entry.partitionKey(), sortKey));
        }
        return new Wire.SwapReply(previous, peeked);
    }
}
