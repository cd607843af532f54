package dev.hangar.cluster.replication;

/**
 * Counters of a {@link ReplicatedBlockStore} since it started, for metrics and tests.
 *
 * <p>A round is one sequential wave of inter-node calls, however many calls run in parallel within
 * it: a write costs one round (none if every replica is this node), a read costs one round per
 * remote replica asked in turn (none when the local copy serves it). {@code readFallbacks} counts
 * replicas asked after the first one failed, missed or was corrupt.
 */
public record ReplicationStats(
        long writes, long writeRounds, long reads, long readRounds, long readFallbacks, long resyncQueued) {}
