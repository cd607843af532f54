package dev.hangar.cluster.table;

import dev.hangar.cluster.layout.NodeId;
import java.util.Comparator;
import java.util.Objects;

/**
 * A hybrid logical timestamp: physical milliseconds, a logical counter for events within one
 * millisecond (or while the physical clock lags a timestamp already seen), and the issuing node.
 *
 * <p>The node takes part in the order only to break ties: two nodes may issue the same (wall,
 * logical) pair, and every replica must still pick the same winner.
 *
 * @param wall milliseconds since the epoch, as the issuing node's hybrid clock saw them
 * @param logical counter within {@code wall}
 * @param node the node whose clock issued it
 */
public record Timestamp(long wall, int logical, NodeId node) implements Comparable<Timestamp> {
    private static final Comparator<Timestamp> ORDER = Comparator.comparingLong(Timestamp::wall)
            .thenComparingInt(Timestamp::logical)
            .thenComparing(Timestamp::node);

    public Timestamp {
        Objects.requireNonNull(node, "node");
        if (wall < 0 || logical < 0) {
            throw new IllegalArgumentException("timestamp parts must not be negative: " + wall + "." + logical);
        }
    }

    @Override
    public int compareTo(Timestamp other) {
        return ORDER.compare(this, other);
    }

    public boolean isAfter(Timestamp other) {
        return compareTo(other) > 0;
    }

    @Override
    public String toString() {
        return wall + "." + logical + "@" + node;
    }
}
