package dev.hangar.cluster.rpc;

import dev.hangar.cluster.layout.NodeId;
import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Injected network faults, for tests and benchmarks: per directed link (from → to), a one-way delay
 * with uniform jitter, a drop probability, and whether the link is cut (a partition).
 *
 * <p>One instance is shared by all the clients and servers that should see the same network, and may
 * be changed while they run. Clients consult it before sending a request and servers before sending
 * a response, so a delay set on both directions of a pair costs a call twice the delay, as a real
 * round trip would. A dropped or cut message is simply not sent: the caller learns of it by timeout,
 * as it would from a real partition, never from an error that a real network would not give.
 */
public final class NetworkFaults {
    /** Faults of one directed link. */
    public record LinkFaults(Duration delay, Duration jitter, double dropProbability) {
        /** No delay, no drops. */
        public static final LinkFaults NONE = new LinkFaults(Duration.ZERO, Duration.ZERO, 0);

        public LinkFaults {
            if (delay.isNegative() || jitter.isNegative()) {
                throw new IllegalArgumentException("delay and jitter must not be negative");
            }
            if (!(dropProbability >= 0 && dropProbability <= 1)) {
                throw new IllegalArgumentException("drop probability must be within [0, 1]: " + dropProbability);
            }
        }
    }

    /** What to do with one message. */
    public sealed interface Verdict {
        /** Send it after {@code delayNanos} (0: at once). */
        record Deliver(long delayNanos) implements Verdict {}

        /** Do not send it. */
        record Drop() implements Verdict {}
    }

    private record Link(NodeId from, NodeId to) {}

    private static final Verdict.Deliver NOW = new Verdict.Deliver(0);
    private static final Verdict.Drop DROP = new Verdict.Drop();

    private final ConcurrentHashMap<Link, LinkFaults> links = new ConcurrentHashMap<>();
    private final Set<Link> cut = ConcurrentHashMap.newKeySet();
    private volatile LinkFaults defaults = LinkFaults.NONE;
    // Read on every message: skip the map lookups altogether when no fault was ever set.
    private volatile boolean active;

    /** Faults for every link that has none of its own. */
    public NetworkFaults setDefault(LinkFaults faults) {
        defaults = Objects.requireNonNull(faults);
        active = true;
        return this;
    }

    /** Faults for the link from {@code from} to {@code to} (one direction). */
    public NetworkFaults set(NodeId from, NodeId to, LinkFaults faults) {
        links.put(new Link(from, to), Objects.requireNonNull(faults));
        active = true;
        return this;
    }

    /** Fixed delay plus uniform jitter in both directions between two nodes. */
    public NetworkFaults delayBetween(NodeId a, NodeId b, Duration delay, Duration jitter) {
        set(a, b, new LinkFaults(delay, jitter, 0));
        return set(b, a, new LinkFaults(delay, jitter, 0));
    }

    /** Cuts every link between a node of {@code side} and a node of {@code others}, both directions. */
    public NetworkFaults partition(Collection<NodeId> side, Collection<NodeId> others) {
        for (NodeId a : side) {
            for (NodeId b : others) {
                if (!a.equals(b)) {
                    cut.add(new Link(a, b));
                    cut.add(new Link(b, a));
                }
            }
        }
        active = true;
        return this;
    }

    /** Cuts one direction only: messages from {@code from} to {@code to} are lost. */
    public NetworkFaults cut(NodeId from, NodeId to) {
        cut.add(new Link(from, to));
        active = true;
        return this;
    }

    /** Restores every cut link; delays and drop rates stay. */
    public NetworkFaults heal() {
        cut.clear();
        return this;
    }

    /** Removes every fault. */
    public NetworkFaults clear() {
        cut.clear();
        links.clear();
        defaults = LinkFaults.NONE;
        active = false;
        return this;
    }

    /**
     * Whether any fault was set since the last {@link #clear} (a healed partition leaves it so): while not, every
     * verdict delivers at once, and hooks may skip their own work (finding out who a message is from).
     */
    public boolean active() {
        return active;
    }

    /** The fate of one message from {@code from} to {@code to}, drawn now. */
    public Verdict verdict(NodeId from, NodeId to) {
        if (!active) {
            return NOW;
        }
        Link link = new Link(from, to);
        if (cut.contains(link)) {
            return DROP;
        }
        LinkFaults faults = links.getOrDefault(link, defaults);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        if (faults.dropProbability() > 0 && random.nextDouble() < faults.dropProbability()) {
            return DROP;
        }
        long delay = faults.delay().toNanos();
        long jitter = faults.jitter().toNanos();
        if (jitter > 0) {
            delay += random.nextLong(jitter + 1);
        }
        return delay == 0 ? NOW : new Verdict.Deliver(delay);
    }
}
