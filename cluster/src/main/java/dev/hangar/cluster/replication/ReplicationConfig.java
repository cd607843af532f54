package dev.hangar.cluster.replication;

import java.time.Duration;

/**
 * Settings of a {@link ReplicatedBlockStore}.
 *
 * @param writeQuorum replicas that must acknowledge a write before it returns; capped at the
 *     partition's replica count, so a cluster of one still writes
 * @param writeTimeout how long a replica may take to acknowledge a write (or a delete)
 * @param readTimeout how long one replica may take to answer a read before the next one is asked
 * @param maxBlockBytes largest block accepted; must leave room for the message header in one RPC
 *     frame
 * @param resyncInterval how often the background worker runs the resync queue; zero: never, tests
 *     call {@link ResyncQueue#runOnce} themselves
 */
public record ReplicationConfig(
        int writeQuorum, Duration writeTimeout, Duration readTimeout, int maxBlockBytes, Duration resyncInterval) {

    /** 16 MiB frames minus room for the method name and the put header. */
    public static final int DEFAULT_MAX_BLOCK_BYTES = (16 << 20) - 4096;

    public ReplicationConfig {
        if (writeQuorum < 1) {
            throw new IllegalArgumentException("write quorum must be positive: " + writeQuorum);
        }
        if (!writeTimeout.isPositive() || !readTimeout.isPositive()) {
            throw new IllegalArgumentException("timeouts must be positive");
        }
        if (maxBlockBytes < 1) {
            throw new IllegalArgumentException("maxBlockBytes must be positive: " + maxBlockBytes);
        }
        if (resyncInterval.isNegative()) {
            throw new IllegalArgumentException("resync interval must not be negative");
        }
    }

    /** Quorum 2 (of replication factor 3), 5 s timeouts, 16 MiB blocks, resync every 30 s. */
    public static ReplicationConfig defaults() {
        return new ReplicationConfig(
                2, Duration.ofSeconds(5), Duration.ofSeconds(5), DEFAULT_MAX_BLOCK_BYTES, Duration.ofSeconds(30));
    }
}
