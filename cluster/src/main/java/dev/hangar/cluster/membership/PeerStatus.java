package dev.hangar.cluster.membership;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import java.net.InetSocketAddress;
import java.time.Instant;

/**
 * One node as this node sees it.
 *
 * @param lastSeen when the node last answered one of our pings (for a node only heard of, when we
 *     first heard of it)
 * @param layoutVersion the layout version the node last announced
 */
public record PeerStatus(
        NodeId id, String zone, long capacity, InetSocketAddress address, State state, Instant lastSeen,
        long layoutVersion) {

    /** Reachability, from this node's point of view. */
    public enum State {
        /** Answered a recent ping. */
        UP,
        /** Missed a few pings, or known only from others so far: maybe slow, maybe gone. */
        SUSPECT,
        /** Missed pings for long enough to be treated as gone until it answers again. */
        DOWN
    }

    public NodeRole role() {
        return new NodeRole(id, zone, capacity);
    }

    public PeerInfo info() {
        return new PeerInfo(id, zone, capacity, address);
    }

    PeerStatus with(State newState, Instant seen) {
        return new PeerStatus(id, zone, capacity, address, newState, seen, layoutVersion);
    }

    PeerStatus with(PeerInfo info, long version) {
        return new PeerStatus(id, info.zone(), info.capacity(), info.address(), state, lastSeen, version);
    }

    /** Equal in everything listeners care about: a new {@code lastSeen} alone is no change. */
    boolean sameAs(PeerStatus other) {
        return with(state, other.lastSeen).equals(other);
    }
}
