package dev.hangar.cluster.table;

import dev.hangar.cluster.layout.NodeId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * Asks replicas until {@code needed} of them answered: {@code initial} at once, and one more of the
 * remaining replicas each time one fails, so that a dead replica costs a timeout and a round rather
 * than the operation.
 *
 * <p>Completes with the answers that made the quorum; later answers are dropped, but their calls
 * run to the end (a put's writes to the slower replicas continue in the background).
 */
final class QuorumCall<T> {
    /** The answers that made the quorum, by replica, and the sequential rounds they took. */
    record Answers<T>(Map<NodeId, T> byNode, int rounds) {}

    private final String operation;
    private final List<NodeId> targets;
    private final int needed;
    private final NodeId self;
    private final Function<NodeId, CompletableFuture<T>> call;
    private final CompletableFuture<Answers<T>> result = new CompletableFuture<>();
    private final Map<NodeId, T> answers = new LinkedHashMap<>();
    private final List<String> failures = new ArrayList<>();
    private int next;
    private int pending;
    private int rounds;

    private QuorumCall(String operation, List<NodeId> targets, int needed, NodeId self,
            Function<NodeId, CompletableFuture<T>> call) {
        this.operation = operation;
        this.targets = targets;
        this.needed = needed;
        this.self = self;
        this.call = call;
    }

    /**
     * Calls {@code call} on the first {@code initial} of {@code targets} (in order), then on further
     * targets as calls fail, until {@code needed} succeeded.
     */
    static <T> CompletableFuture<Answers<T>> run(String operation, List<NodeId> targets, int needed, int initial,
            NodeId self, Function<NodeId, CompletableFuture<T>> call) {
        QuorumCall<T> quorum = new QuorumCall<>(operation, targets, needed, self, call);
        if (targets.size() < needed) {
            quorum.result.completeExceptionally(new QuorumException(operation, needed, 0,
                    List.of("the partition has only " + targets.size() + " replica(s)")));
            return quorum.result;
        }
        List<NodeId> first;
        synchronized (quorum) {
            int count = Math.min(Math.max(initial, needed), targets.size());
            first = targets.subList(0, count);
            quorum.next = count;
            quorum.pending = count;
        }
        for (NodeId node : first) {
            quorum.launch(node, 0);
        }
        return quorum.result;
    }

    // depth: sequential remote rounds before this call was sent (a fallback follows a failed call).
    private void launch(NodeId node, int depthBefore) {
        int depth = depthBefore + (node.equals(self) ? 0 : 1);
        CompletableFuture<T> answer;
        try {
            answer = call.apply(node);
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((value, failure) -> {
            if (failure == null) {
                succeeded(node, value, depth);
            } else {
                failed(node, failure, depth);
            }
        });
    }

    private void succeeded(NodeId node, T value, int depth) {
        Answers<T> done = null;
        synchronized (this) {
            pending--;
            if (result.isDone()) {
                return;
            }
            answers.put(node, value);
            rounds = Math.max(rounds, depth);
            if (answers.size() >= needed) {
                done = new Answers<>(Map.copyOf(answers), rounds);
            }
        }
        if (done != null) {
            result.complete(done);
        }
    }

    private void failed(NodeId node, Throwable failure, int depth) {
        NodeId fallback = null;
        QuorumException lost = null;
        synchronized (this) {
            pending--;
            if (result.isDone()) {
                return;
            }
            failures.add(node + ": " + describe(failure));
            if (answers.size() + pending < needed) {
                if (next < targets.size()) {
                    fallback = targets.get(next++);
                    pending++;
                } else {
                    lost = new QuorumException(operation, needed, answers.size(), List.copyOf(failures));
                }
            }
        }
        if (fallback != null) {
            launch(fallback, depth);
        } else if (lost != null) {
            result.completeExceptionally(lost);
        }
    }

    private static String describe(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : " " + cause.getMessage());
    }
}
