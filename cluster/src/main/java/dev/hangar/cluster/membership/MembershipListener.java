package dev.hangar.cluster.membership;

import org.jspecify.annotations.Nullable;

/**
 * Hears of peers appearing and changing: state, address, role or announced layout version. Called on
 * the membership thread or an RPC thread; must not block.
 */
@FunctionalInterface
public interface MembershipListener {
    /** {@code before} is null for a peer seen for the first time. */
    void changed(@Nullable PeerStatus before, PeerStatus after);

    /**
     * Whether a change is a node becoming reachable after it was not: back after missed pings, or
     * reached for the first time after being heard of second-hand. Both deserve an immediate sync.
     */
    static boolean cameBack(@Nullable PeerStatus before, PeerStatus after) {
        return before != null && before.state() != PeerStatus.State.UP && after.state() == PeerStatus.State.UP;
    }
}
