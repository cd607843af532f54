package dev.hangar.cluster.table;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Sequential inter-node round trips per table operation: the latency an operation pays for the
 * network, which a count of calls does not show (a put sends two calls in parallel: one round).
 *
 * <p>An operation served by the local replica alone costs 0 rounds; one that had to ask a further
 * replica after another failed costs one more. Background work (the rest of a put's sends, read
 * repair) is not counted: no caller waits for it.
 */
public final class RoundStats {
    private record Totals(LongAdder operations, LongAdder rounds) {}

    private final ConcurrentHashMap<String, Totals> totals = new ConcurrentHashMap<>();

    void record(String operation, int rounds) {
        Totals t = totals.computeIfAbsent(operation, o -> new Totals(new LongAdder(), new LongAdder()));
        t.operations().increment();
        t.rounds().add(rounds);
    }

    /** Operations of one kind completed so far (successfully). */
    public long operations(String operation) {
        Totals t = totals.get(operation);
        return t == null ? 0 : t.operations().sum();
    }

    /** Sum of the sequential rounds of those operations. */
    public long rounds(String operation) {
        Totals t = totals.get(operation);
        return t == null ? 0 : t.rounds().sum();
    }

    /** Rounds per operation kind, as a sorted copy. */
    public Map<String, Long> snapshot() {
        Map<String, Long> copy = new TreeMap<>();
        totals.forEach((op, t) -> copy.put(op, t.rounds().sum()));
        return copy;
    }

    public void reset() {
        totals.clear();
    }
}
