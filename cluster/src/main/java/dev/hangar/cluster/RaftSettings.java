package dev.hangar.cluster;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * How a node of a cluster in the Raft mode ({@code hangar.cluster.replication=raft}) runs its Raft groups.
 *
 * @param bindAddress interface the Raft (gRPC) server listens on
 * @param port its port; 0 picks a free one (tests). Other nodes ask this node's RPC port for it, so it need not be
 *     the same on every node
 * @param reads how a read is made linearizable; see {@link Reads}
 * @param expectedRtt the round trip time expected between nodes: election timeouts are 10 to 20 times it (as
 *     etcd's tuning guide advises), never below 150 ms, so a WAN cluster does not hold elections on every slow
 *     heartbeat. The default, 100 ms, gives 1–2 s: safe on a loaded machine, and the time a failover takes
 * @param snapshotEntries how many log entries a group's member applies between two snapshots of its state (a
 *     RocksDB checkpoint), after which the log before the snapshot may be purged; a member too far behind for
 *     the leader's log is sent the snapshot
 * @param logSegmentBytes the size of a Raft log segment file; only whole segments before a snapshot are purged
 * @param requestDeadline how long a command or a read may wait for its group (an election, a forward to the
 *     leader and its retries) before it fails with {@code MetadataUnavailableException} (a 503); a forward under
 *     way when it runs out ends within one attempt's timeout (3 s) after it. 30 s by default; tests of
 *     partitions shorten it
 */
public record RaftSettings(String bindAddress, int port, Reads reads, Duration expectedRtt, long snapshotEntries,
        long logSegmentBytes, Duration requestDeadline) {
    public static final int DEFAULT_PORT = 3902;
    private static final Duration MIN_ELECTION_TIMEOUT = Duration.ofMillis(150);
    public static final Duration DEFAULT_EXPECTED_RTT = Duration.ofMillis(100);
    public static final long DEFAULT_SNAPSHOT_ENTRIES = 10_000;
    public static final long DEFAULT_LOG_SEGMENT_BYTES = 8L << 20;
    public static final Duration DEFAULT_REQUEST_DEADLINE = Duration.ofSeconds(30);

    public RaftSettings {
        if (bindAddress == null || bindAddress.isBlank()) {
            throw new IllegalArgumentException("Raft bind address must not be blank");
        }
        if (port < 0 || port > 0xffff) {
            throw new IllegalArgumentException("Raft port must be between 0 and 65535: " + port);
        }
        Objects.requireNonNull(reads, "reads");
        Objects.requireNonNull(requestDeadline, "requestDeadline");
        if (expectedRtt.isNegative() || expectedRtt.isZero()) {
            throw new IllegalArgumentException("the expected round trip time must be positive: " + expectedRtt);
        }
        if (snapshotEntries < 1) {
            throw new IllegalArgumentException("snapshot entries must be positive: " + snapshotEntries);
        }
        if (logSegmentBytes < 64 * 1024) {
            throw new IllegalArgumentException("a Raft log segment must be at least 64 KiB: " + logSegmentBytes);
        }
        if (requestDeadline.isNegative() || requestDeadline.isZero()) {
            throw new IllegalArgumentException("the request deadline must be positive: " + requestDeadline);
        }
    }

    /** Settings with the default snapshot interval, log segment size and request deadline (30 s). */
    public RaftSettings(String bindAddress, int port, Reads reads, Duration expectedRtt) {
        this(bindAddress, port, reads, expectedRtt, DEFAULT_SNAPSHOT_ENTRIES, DEFAULT_LOG_SEGMENT_BYTES,
                DEFAULT_REQUEST_DEADLINE);
    }

    /** These settings with another request deadline. */
    public RaftSettings withRequestDeadline(Duration deadline) {
        return new RaftSettings(bindAddress, port, reads, expectedRtt, snapshotEntries, logSegmentBytes, deadline);
    }

    /** These settings on another port (a node restarted on the port it had). */
    public RaftSettings withPort(int newPort) {
        return new RaftSettings(bindAddress, newPort, reads, expectedRtt, snapshotEntries, logSegmentBytes,
                requestDeadline);
    }

    /** All interfaces, the default port, lease reads, 100 ms expected round trips, a 30 s request deadline. */
    public static RaftSettings defaults() {
        return new RaftSettings("0.0.0.0", DEFAULT_PORT, Reads.LEASE, DEFAULT_EXPECTED_RTT);
    }

    /** The shortest election timeout: 10 round trips, at least 150 ms. The longest is twice it. */
    public Duration electionTimeout() {
        Duration scaled = expectedRtt.multipliedBy(10);
        return scaled.compareTo(MIN_ELECTION_TIMEOUT) < 0 ? MIN_ELECTION_TIMEOUT : scaled;
    }

    /**
     * How a read is made linearizable ({@code hangar.cluster.raft.reads}).
     */
    public enum Reads {
        /**
         * The leader answers from its own state while its lease (heartbeats a majority acknowledged within the
         * election timeout) holds: no round; a follower asks the leader for its commit index (ReadIndex, one
         * round) and answers once it has applied that far. Risk: a leader whose clock runs much faster than the
         * others' may serve a read after a new leader was elected.
         */
        LEASE,
        /** As {@link #LEASE}, but the leader confirms its leadership with a heartbeat round for every read. */
        READ_INDEX,
        /**
         * The leader answers from its own state with no check; followers send their reads to it. No round on the
         * leader, one from elsewhere; a deposed leader that has not noticed yet may serve stale data.
         */
        LEADER;

        /** The mode a configuration value names: {@code lease}, {@code read-index} or {@code leader}. */
        public static Reads parse(String value) {
            return switch (value.strip().toLowerCase(Locale.ROOT)) {
                case "lease" -> LEASE;
                case "read-index", "readindex" -> READ_INDEX;
                case "leader" -> LEADER;
                default -> throw new IllegalArgumentException(
                        "hangar.cluster.raft.reads must be lease, read-index or leader, not " + value);
            };
        }
    }
}
