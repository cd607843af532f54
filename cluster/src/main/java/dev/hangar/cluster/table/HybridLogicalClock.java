package dev.hangar.cluster.table;

import dev.hangar.cluster.layout.NodeId;
import java.util.function.LongSupplier;

/**
 * A hybrid logical clock (Kulkarni et al., 2014): timestamps that follow physical time when clocks
 * agree and never go backwards when they do not.
 *
 * <p>Why not plain wall-clock time: a write that causally follows another (a client reads a value
 * from node A, then overwrites it through node B whose clock is behind) must get the larger
 * timestamp, or last-writer-wins would silently keep the older value. {@link #update} folds every
 * timestamp a node receives into its clock, so anything it issues afterwards orders after it.
 */
public final class HybridLogicalClock {
    private final NodeId node;
    private final LongSupplier physicalMillis;
    private long wall;
    private int logical;

    /** A clock for {@code node} on the system clock. */
    public HybridLogicalClock(NodeId node) {
        this(node, System::currentTimeMillis);
    }

    /** A clock for {@code node} reading physical time from {@code physicalMillis} (tests pass a fake). */
    public HybridLogicalClock(NodeId node, LongSupplier physicalMillis) {
        this.node = node;
        this.physicalMillis = physicalMillis;
    }

    public NodeId node() {
        return node;
    }

    /** The physical time the clock reads, for decisions (tombstone expiry) that need no ordering. */
    public long physicalMillis() {
        return physicalMillis.getAsLong();
    }

    /** A timestamp greater than every one this clock issued or received before. */
    public synchronized Timestamp now() {
        long physical = physicalMillis.getAsLong();
        if (physical > wall) {
            wall = physical;
            logical = 0;
        } else {
            logical = Math.addExact(logical, 1);
        }
        return new Timestamp(wall, logical, node);
    }

    /** Takes in a timestamp received from another node, so that later {@link #now} calls order after it. */
    public synchronized void update(Timestamp received) {
        long physical = physicalMillis.getAsLong();
        long newWall = Math.max(Math.max(wall, received.wall()), physical);
        if (newWall == wall && newWall == received.wall()) {
            logical = Math.max(logical, received.logical());
        } else if (newWall == received.wall()) {
            logical = received.logical();
        } else if (newWall != wall) {
            logical = 0;
        }
        // Keep the local counter when only the local wall equals newWall: nothing received is ahead of it.
        wall = newWall;
    }

    /** The latest timestamp issued or received, without advancing the clock. */
    public synchronized Timestamp last() {
        return new Timestamp(wall, logical, node);
    }
}
