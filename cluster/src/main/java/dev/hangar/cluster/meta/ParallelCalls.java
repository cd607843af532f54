package dev.hangar.cluster.meta;

import dev.hangar.cluster.RoundTrips;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Table calls sent together, counted as the request's rounds the way the request waits for them:
 * the most rounds any of them took, not their sum. Each call counts into a tally of its own; once
 * the caller has joined them all, {@link #counted} adds the largest to the request's tally.
 */
final class ParallelCalls {
    private final RoundTrips.Tally caller = RoundTrips.current();
    private final List<RoundTrips.Tally> tallies = new ArrayList<>();

    <T> CompletableFuture<T> start(Supplier<CompletableFuture<T>> call) {
        RoundTrips.Tally tally = new RoundTrips.Tally();
        tallies.add(tally);
        try (RoundTrips.Binding own = RoundTrips.bind(tally)) {
            return call.get();
        }
    }

    /** Adds the rounds of the slowest call to the request's tally; call once every call has completed. */
    void counted() {
        caller.addMetadata(tallies.stream().mapToInt(RoundTrips.Tally::metadata).max().orElse(0));
    }
}
