package dev.hangar.cluster;

import java.time.Duration;

/**
 * How a node looks after its stored data in the background ({@link StorageMaintenance}).
 *
 * @param compactionInterval how often packed segment files are compacted; zero turns the periodic
 *     compaction off (it still runs on demand)
 * @param scrubInterval how often a full scrub runs, the first one {@link #firstScrubDelay()} after
 *     start; zero turns the periodic scrub off (it still runs on demand)
 * @param scrubBytesPerSecond how many block bytes a scrub reads per second at most, so that it
 *     does not compete with clients for the disk; zero for no limit
 * @param orphanGrace a block that nothing references is removed by a scrub only if it was written
 *     at least this long before the scrub began: younger ones may belong to an upload whose
 *     metadata is not committed yet
 */
public record MaintenanceConfig(
        Duration compactionInterval, Duration scrubInterval, long scrubBytesPerSecond, Duration orphanGrace) {

    /** Compaction every 10 minutes, a scrub every 7 days at 16 MiB/s, orphans older than a day removed. */
    public static final MaintenanceConfig DEFAULTS =
            new MaintenanceConfig(Duration.ofMinutes(10), Duration.ofDays(7), 16L << 20, Duration.ofHours(24));

    /** A node that was just started has better things to do than read every block at once. */
    private static final Duration FIRST_SCRUB_AT_MOST = Duration.ofHours(1);

    public MaintenanceConfig {
        if (compactionInterval == null || scrubInterval == null || orphanGrace == null) {
            throw new IllegalArgumentException("compaction interval, scrub interval and orphan grace are required");
        }
        if (compactionInterval.isNegative() || scrubInterval.isNegative() || orphanGrace.isNegative()) {
            throw new IllegalArgumentException("maintenance intervals and the orphan grace must not be negative");
        }
        if (scrubBytesPerSecond < 0) {
            throw new IllegalArgumentException("scrub rate must not be negative: " + scrubBytesPerSecond);
        }
    }

    /** When the first periodic scrub runs: one interval after start, but at most an hour. */
    public Duration firstScrubDelay() {
        return scrubInterval.compareTo(FIRST_SCRUB_AT_MOST) < 0 ? scrubInterval : FIRST_SCRUB_AT_MOST;
    }
}
