package dev.hangar.cluster.membership;

import java.util.Locale;

/**
 * How many replicas a write waits for and a read asks, out of the replication factor {@code rf}.
 *
 * <p>Only {@link #CONSISTENT} makes every read quorum intersect every write quorum, so that a read
 * sees every acknowledged write; the other modes trade that guarantee for availability or latency.
 */
public enum Consistency {
    /** Write and read a majority: quorums intersect, reads see every acknowledged write. */
    CONSISTENT,
    /** Write a majority, read one replica: reads stay available with a single replica left, but may be stale. */
    DEGRADED,
    /** Write one, read one: fastest and most available, but an acknowledged write can be lost with its node. */
    DANGEROUS;

    /** Replicas that must acknowledge a write. */
    public int writeQuorum(int rf) {
        checkFactor(rf);
        return this == DANGEROUS ? 1 : rf / 2 + 1;
    }

    /** Replicas whose answers a read merges. */
    public int readQuorum(int rf) {
        checkFactor(rf);
        return this == CONSISTENT ? rf / 2 + 1 : 1;
    }

    /** Parses the configuration spelling ({@code consistent}, {@code degraded}, {@code dangerous}), any case. */
    public static Consistency parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "consistency must be consistent, degraded or dangerous: " + text, e);
        }
    }

    private static void checkFactor(int rf) {
        if (rf < 1) {
            throw new IllegalArgumentException("replication factor must be positive: " + rf);
        }
    }
}
