package dev.hangar.cluster;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the sequential rounds of inter-node calls one client request costs, so that the S3 layer
 * can expose them per operation: a round is a set of calls sent together whose answers the request
 * waits for (a quorum write to the replicas is one round, however many replicas it reaches).
 *
 * <p>The request binds a {@link Tally} to each thread that works for it; the replicated stores add
 * to the tally bound to the thread that calls them, capturing it before their answers arrive on
 * other threads. A call served by this node's own replica alone is no round.
 */
public final class RoundTrips {
    private static final ThreadLocal<Tally> CURRENT = new ThreadLocal<>();
    private static final Tally DISCARD = new Tally();

    private RoundTrips() {}

    /** The rounds of one request, by what they were for. Thread-safe. */
    public static final class Tally {
        private final AtomicInteger metadata = new AtomicInteger();
        private final AtomicInteger blocks = new AtomicInteger();

        public void addMetadata(int rounds) {
            metadata.addAndGet(rounds);
        }

        public void addBlocks(int rounds) {
            blocks.addAndGet(rounds);
        }

        /** Rounds of metadata calls (replicated table reads, writes and listings). */
        public int metadata() {
            return metadata.get();
        }

        /** Rounds of block calls (writes to the replicas, reads from one). */
        public int blocks() {
            return blocks.get();
        }
    }

    /** A binding of a tally to the current thread, undone by {@link #close}. */
    public static final class Binding implements AutoCloseable {
        private final Tally previous;

        private Binding(Tally previous) {
            this.previous = previous;
        }

        @Override
        public void close() {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        }
    }

    /** Makes {@code tally} count the calls the current thread makes until the binding is closed. */
    public static Binding bind(Tally tally) {
        Binding binding = new Binding(CURRENT.get());
        CURRENT.set(tally);
        return binding;
    }

    /** The tally bound to the current thread; one that nobody reads when none is. */
    public static Tally current() {
        Tally tally = CURRENT.get();
        return tally == null ? DISCARD : tally;
    }
}
