package dev.hangar.cluster.table;

import dev.hangar.cluster.layout.NodeId;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * A hybrid logical clock (Kulkarni et al., 2014): timestamps that follow physical time when clocks
 * agree and never go backwards when they do not.
 *
 * <p>Why not plain wall-clock time: a write that causally follows another (a client reads a value
 * from node A, then overwrites it through node B whose clock is behind) must get the larger
 * timestamp, or last-writer-wins would silently keep the older value. {@link #update} folds every
 * timestamp a node receives into its clock, so anything it issues afterwards orders after it.
 *
 * <p>That folding is bounded: a received timestamp more than {@code maxAhead} ahead of the physical
 * clock is refused with {@link FutureTimestampException} and changes nothing, so one node with a
 * clock far in the future (or a forged timestamp near the largest long) cannot drag every other
 * node's timestamps after it. Such a peer's writes fail until its clock is fixed; local writes go on.
 */
public final class HybridLogicalClock {
    /** How far ahead of the local clock a received timestamp may be unless configured otherwise. */
    public static final Duration DEFAULT_MAX_AHEAD = Duration.ofMinutes(1);

    private final NodeId node;
    private final LongSupplier physicalMillis;
    private final long maxAheadMillis;
    private long wall;
    private int logical;

    /** A clock for {@code node} on the system clock, taking timestamps up to a minute ahead. */
    public HybridLogicalClock(NodeId node) {
        this(node, System::currentTimeMillis, DEFAULT_MAX_AHEAD);
    }

    /** A clock for {@code node} on the system clock, taking timestamps up to {@code maxAhead} ahead. */
    public HybridLogicalClock(NodeId node, Duration maxAhead) {
        this(node, System::currentTimeMillis, maxAhead);
    }

    /** A clock for {@code node} reading physical time from {@code physicalMillis} (tests pass a fake). */
    public HybridLogicalClock(NodeId node, LongSupplier physicalMillis) {
        this(node, physicalMillis, DEFAULT_MAX_AHEAD);
    }

    public HybridLogicalClock(NodeId node, LongSupplier physicalMillis, Duration maxAhead) {
        if (maxAhead.isNegative() || maxAhead.isZero()) {
            throw new IllegalArgumentException("max ahead must be positive: " + maxAhead);
        }
        this.node = node;
        this.physicalMillis = physicalMillis;
        this.maxAheadMillis = maxAhead.toMillis();
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

    /**
     * Takes in a timestamp received from another node, so that later {@link #now} calls order after it.
     *
     * @throws FutureTimestampException if it is too far ahead; the clock is then unchanged
     */
    public synchronized void update(Timestamp received) {
        long physical = physicalMillis.getAsLong();
        requireNotAhead(received, physical);
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

    /**
     * Checks a received timestamp without taking it in: for entries merged where ordering later
     * writes after them does not matter (anti-entropy), which must not store what the clock would refuse.
     *
     * @throws FutureTimestampException if it is too far ahead
     */
    public void check(Timestamp received) {
        requireNotAhead(received, physicalMillis.getAsLong());
    }

    private void requireNotAhead(Timestamp received, long physical) {
        // Subtraction, not physical + bound: a wall near the largest long must not overflow the check.
        if (received.wall() - physical > maxAheadMillis) {
            throw new FutureTimestampException("timestamp " + received + " is " + (received.wall() - physical)
                    + " ms ahead of the clock of node " + node + " (at most " + maxAheadMillis
                    + " ms allowed): the clock of node " + received.node() + " is wrong, or its data");
        }
    }

    /** The latest timestamp issued or received, without advancing the clock. */
    public synchronized Timestamp last() {
        return new Timestamp(wall, logical, node);
    }
}
