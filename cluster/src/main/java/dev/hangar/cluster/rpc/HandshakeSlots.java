package dev.hangar.cluster.rpc;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * How many connections may be in their handshake at once, in all and from one address. An unauthenticated
 * connection costs a file descriptor and a channel until its handshake fails or times out; without a bound,
 * anyone who reaches the RPC port could hold thousands open and starve the process (its S3 port shares the
 * descriptor limit). Authenticated connections do not count. From one address the bound is lower, so that
 * one host flooding the port does not take every slot from the cluster's own nodes.
 */
final class HandshakeSlots {
    /** Far above what a cluster's nodes open at once, even all reconnecting after a partition heals. */
    static final int DEFAULT_TOTAL = 512;
    static final int DEFAULT_PER_ADDRESS = 32;

    private final int total;
    private final int perAddress;
    private final Map<InetAddress, Integer> byAddress = new HashMap<>();
    private int taken;

    HandshakeSlots(int total, int perAddress) {
        if (total < 1 || perAddress < 1) {
            throw new IllegalArgumentException("handshake slots must be positive: " + total + ", " + perAddress);
        }
        this.total = total;
        this.perAddress = perAddress;
    }

    /** Takes a slot for a connection from {@code address}; false when none is free (refuse the connection). */
    synchronized boolean take(InetAddress address) {
        int fromAddress = byAddress.getOrDefault(address, 0);
        if (taken >= total || fromAddress >= perAddress) {
            return false;
        }
        taken++;
        byAddress.put(address, fromAddress + 1);
        return true;
    }

    /** Gives back a slot {@link #take} gave, once the handshake ended either way. */
    synchronized void release(InetAddress address) {
        int fromAddress = byAddress.getOrDefault(address, 0);
        if (fromAddress == 0) {
            throw new IllegalStateException("no handshake slot taken for " + address);
        }
        taken--;
        if (fromAddress == 1) {
            byAddress.remove(address);
        } else {
            byAddress.put(address, fromAddress - 1);
        }
    }

    synchronized int taken() {
        return taken;
    }
}
