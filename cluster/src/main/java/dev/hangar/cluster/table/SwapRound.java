package dev.hangar.cluster.table;

import dev.hangar.cluster.RoundTrips;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.table.ReplicatedTable.Swapped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ReplicatedTable#swap(Entry, List)}: the write of {@link QuorumWrite}, whose replicas
 * answer what they held, and the reading of those answers into what the entry replaced. An answer
 * that is the entry itself (a replica that met it first through read repair or anti-entropy) tells
 * nothing and counts for nothing; too few answers from before the entry make the swap wait for the
 * other replicas' answers.
 */
final class SwapRound {
    private final Replicas replicas;
    private final QuorumWrite writes;

    SwapRound(Replicas replicas, QuorumWrite writes) {
        this.replicas = replicas;
        this.writes = writes;
    }

    CompletableFuture<Swapped> swap(Entry entry, List<byte[]> peek) {
        RoundTrips.Tally tally = RoundTrips.current();
        LocalTable local = replicas.local();
        // Null when this node is no replica, or its copy could not be read: then it answers nothing.
        CompletableFuture<@Nullable Optional<Entry>> ownCopy = replicas.replicasOf(entry.partitionKey())
                .contains(replicas.self())
                ? CompletableFuture.supplyAsync(() -> local.get(entry.partitionKey(), entry.sortKey()),
                        replicas.localExecutor()).exceptionally(failure -> null)
                : CompletableFuture.completedFuture(null);
        return ownCopy.thenCompose(held -> writes.replicate(List.of(entry), true, peek, tally).thenCompose(replicated -> {
            Map<NodeId, Wire.SwapReply> answers = new LinkedHashMap<>(replicated.answers());
            int needed = Math.min(replicas.config().writeQuorum(), replicated.replicas().size());
            if (answeredFromBefore(entry, answers, held != null) >= needed) {
                return CompletableFuture.completedFuture(swapped(entry, held, answers.values(), peek));
            }
            List<CompletableFuture<Void>> others = new ArrayList<>();
            replicated.calls().forEach((node, call) -> {
                if (!answers.containsKey(node)) {
                    others.add(call.handle((answer, failure) -> {
                        if (failure == null) {
                            synchronized (answers) {
                                answers.put(node, answer);
                            }
                        }
                        return null;
                    }));
                }
            });
            return CompletableFuture.allOf(others.toArray(CompletableFuture[]::new)).thenApply(done -> {
                synchronized (answers) {
                    return swapped(entry, held, answers.values(), peek);
                }
            });
        }));
    }

    /**
     * How many replicas answered from a state before {@code entry}: this node by its own copy, read
     * first (or else by its swap's answer, as any other replica).
     */
    private int answeredFromBefore(Entry entry, Map<NodeId, Wire.SwapReply> answers, boolean ownCopyRead) {
        int count = ownCopyRead ? 1 : 0;
        for (Map.Entry<NodeId, Wire.SwapReply> answer : answers.entrySet()) {
            boolean counted = ownCopyRead && answer.getKey().equals(replicas.self());
            if (!counted && !heldAlready(entry, answer.getValue())) {
                count++;
            }
        }
        return count;
    }

    private static boolean heldAlready(Entry entry, Wire.SwapReply answer) {
        return answer.previous().isPresent() && answer.previous().get().equals(entry);
    }

    private Swapped swapped(Entry entry, @Nullable Optional<Entry> ownCopy, Collection<Wire.SwapReply> answers,
            List<byte[]> peek) {
        MergeRule rule = replicas.rule();
        Entry previous = ownCopy == null ? null : ownCopy.orElse(null);
        List<Entry> peeked = new ArrayList<>(Collections.nCopies(peek.size(), (Entry) null));
        for (Wire.SwapReply answer : answers) {
            if (!heldAlready(entry, answer)) {
                previous = rule.winner(previous, answer.previous().orElse(null));
            }
            for (int i = 0; i < peek.size() && i < answer.peeked().size(); i++) {
                peeked.set(i, rule.winner(peeked.get(i), answer.peeked().get(i).orElse(null)));
            }
        }
        return new Swapped(entry, Optional.ofNullable(previous), peeked.stream().map(Optional::ofNullable).toList());
    }
}
