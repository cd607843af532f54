package dev.hangar.cluster.table;

import dev.hangar.cluster.RoundTrips;
import dev.hangar.cluster.layout.NodeId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The read path of a {@link ReplicatedTable}: a key or a page of a range, merged by the table's
 * rule from the read quorum's answers, the replicas found stale repaired in the background.
 */
final class QuorumRead {
    private final Replicas replicas;

    QuorumRead(Replicas replicas) {
        this.replicas = replicas;
    }

    /** See {@link ReplicatedTable#get}. */
    CompletableFuture<Optional<Entry>> get(byte[] partitionKey, byte[] sortKey) {
        RoundTrips.Tally tally = RoundTrips.current();
        List<NodeId> targets = replicas.readOrder(partitionKey);
        byte[] payload = Wire.getRequest(partitionKey, sortKey);
        NodeId self = replicas.self();
        return QuorumCall.<Optional<Entry>>run("get", targets, readQuorum(), readQuorum(), self, node ->
                        node.equals(self)
                                ? CompletableFuture.supplyAsync(() -> replicas.local().get(partitionKey, sortKey),
                                        replicas.localExecutor())
                                : replicas.call(node, "get", payload)
                                        .thenApply(reply -> replicas.checked(Wire.optionalEntry(reply))))
                .thenApply(answers -> {
                    replicas.rounds().record("get", answers.rounds());
                    tally.addMetadata(answers.rounds());
                    Entry winner = null;
                    for (Optional<Entry> answer : answers.byNode().values()) {
                        winner = replicas.rule().winner(winner, answer.orElse(null));
                    }
                    if (winner == null) {
                        return Optional.<Entry>empty();
                    }
                    replicas.clock().update(winner.timestamp());
                    for (Map.Entry<NodeId, Optional<Entry>> answer : answers.byNode().entrySet()) {
                        if (!answer.getValue().equals(Optional.of(winner))) {
                            replicas.repair(answer.getKey(), List.of(winner));
                        }
                    }
                    return winner.isTombstone() ? Optional.<Entry>empty() : Optional.of(winner);
                });
    }

    /** See {@link ReplicatedTable#range(byte[], byte[], byte[], int)}. */
    CompletableFuture<RangePage> range(byte[] partitionKey, byte[] fromSortKey, byte @Nullable [] untilSortKey,
            int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        RoundTrips.Tally tally = RoundTrips.current();
        List<NodeId> targets = replicas.readOrder(partitionKey);
        int cap = pageCap(limit);
        byte[] payload = Wire.liveRangeRequest(partitionKey, fromSortKey, untilSortKey, limit, cap);
        NodeId self = replicas.self();
        return QuorumCall.<List<Entry>>run("range", targets, readQuorum(), readQuorum(), self, node ->
                        node.equals(self)
                                ? CompletableFuture.supplyAsync(() -> replicas.local().rangeCountingLive(partitionKey,
                                        fromSortKey, untilSortKey, limit, cap), replicas.localExecutor())
                                : replicas.call(node, "range.live", payload)
                                        .thenApply(reply -> replicas.checked(Wire.entries(reply))))
                .thenApply(answers -> {
                    replicas.rounds().record("range", answers.rounds());
                    tally.addMetadata(answers.rounds());
                    return mergePages(answers.byNode(), limit, cap);
                });
    }

    /** The most entries, deletions included, a replica sends for a range page of {@code limit}. */
    static int pageCap(int limit) {
        return Math.max(limit, Math.min(10 * Math.min(limit, 1_000), 10_000));
    }

    private int readQuorum() {
        return replicas.config().readQuorum();
    }

    // Only keys up to the smallest last key of a full page are known to every answering replica:
    // beyond it a replica may hold a newer entry or tombstone it did not send. A page is full when
    // the replica stopped at its limit or its cap (LocalTable.rangeCountingLive), not at the end.
    private RangePage mergePages(Map<NodeId, List<Entry>> pages, int limit, int cap) {
        MergeRule rule = replicas.rule();
        byte[] cutoff = null;
        for (List<Entry> page : pages.values()) {
            if (page.size() >= cap || page.stream().filter(entry -> !rule.isDeletion(entry)).count() >= limit) {
                byte[] last = page.getLast().sortKey();
                if (cutoff == null || Arrays.compareUnsigned(last, cutoff) < 0) {
                    cutoff = last;
                }
            }
        }
        Comparator<byte[]> bytewise = Arrays::compareUnsigned;
        TreeMap<byte[], Entry> merged = new TreeMap<>(bytewise);
        for (List<Entry> page : pages.values()) {
            for (Entry entry : page) {
                if (cutoff == null || Arrays.compareUnsigned(entry.sortKey(), cutoff) <= 0) {
                    merged.merge(entry.sortKey(), entry, rule::merge);
                }
            }
        }
        for (Map.Entry<NodeId, List<Entry>> page : pages.entrySet()) {
            TreeMap<byte[], Entry> held = new TreeMap<>(bytewise);
            page.getValue().forEach(entry -> held.put(entry.sortKey(), entry));
            List<Entry> stale = new ArrayList<>();
            for (Entry winner : merged.values()) {
                if (!winner.equals(held.get(winner.sortKey()))) {
                    stale.add(winner);
                }
            }
            if (!stale.isEmpty()) {
                replicas.repair(page.getKey(), stale);
            }
        }
        // As a get does: a later write of this node orders after what this read saw.
        merged.values().stream().map(Entry::timestamp).max(Comparator.naturalOrder())
                .ifPresent(replicas.clock()::update);
        List<Entry> live = merged.values().stream().filter(e -> !e.isTombstone()).toList();
        // The smallest key after the cutoff: the cutoff followed by a zero byte.
        byte[] next = cutoff == null ? null : Arrays.copyOf(cutoff, cutoff.length + 1);
        return new RangePage(live, next);
    }
}
