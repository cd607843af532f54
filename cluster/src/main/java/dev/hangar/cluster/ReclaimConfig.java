package dev.hangar.cluster;

import java.time.Duration;

/**
 * How a cluster node frees the chunks that its mutations made unreachable.
 *
 * @param garbageGrace a chunk a mutation queued waits this long before its key is read again from the quorum and
 *     it is freed: a concurrent write through another node may have reused it, and, with read quorums of one, a
 *     read of a stale replica may still find it; zero frees it at the next pass
 * @param silentNodeWait while another node cannot be asked which chunks its reads hold, nothing is freed, unless
 *     it has answered none of this node's pings for longer than this: it counts as gone then (dead, or removed
 *     from the cluster), so that it cannot keep every chunk from being freed for ever
 */
public record ReclaimConfig(Duration garbageGrace, Duration silentNodeWait) {

    /** A minute of grace; a node silent for an hour counts as gone. */
    public static final ReclaimConfig DEFAULTS = new ReclaimConfig(Duration.ofMinutes(1), Duration.ofHours(1));

    public ReclaimConfig {
        if (garbageGrace == null || silentNodeWait == null) {
            throw new IllegalArgumentException("garbage grace and silent node wait are required");
        }
        if (garbageGrace.isNegative()) {
            throw new IllegalArgumentException("garbage grace must not be negative: " + garbageGrace);
        }
        if (silentNodeWait.isNegative() || silentNodeWait.isZero()) {
            throw new IllegalArgumentException("silent node wait must be positive: " + silentNodeWait);
        }
    }
}
