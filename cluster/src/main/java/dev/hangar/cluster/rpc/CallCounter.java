package dev.hangar.cluster.rpc;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the calls a client made, per method. Counting at the client rather than the server counts
 * what an operation costs its coordinator, including calls that were dropped or timed out.
 */
public final class CallCounter {
    private final ConcurrentHashMap<String, LongAdder> counts = new ConcurrentHashMap<>();

    void increment(String method) {
        counts.computeIfAbsent(method, m -> new LongAdder()).increment();
    }

    /** Calls of one method so far. */
    public long count(String method) {
        LongAdder adder = counts.get(method);
        return adder == null ? 0 : adder.sum();
    }

    /** Calls of all methods so far. */
    public long total() {
        return counts.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** A sorted copy of the counts. */
    public Map<String, Long> snapshot() {
        Map<String, Long> copy = new TreeMap<>();
        counts.forEach((method, adder) -> copy.put(method, adder.sum()));
        return copy;
    }

    public void reset() {
        counts.clear();
    }
}
