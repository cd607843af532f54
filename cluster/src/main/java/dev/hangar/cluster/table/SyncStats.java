package dev.hangar.cluster.table;

/**
 * What one anti-entropy run did.
 *
 * @param partitionsCompared (partition, peer) pairs whose summaries were compared
 * @param partitionsDiffering of those, the pairs whose roots differed
 * @param leavesExchanged leaves whose entries were exchanged
 * @param entriesSent entries sent to peers
 * @param entriesReceived entries received from peers and merged locally
 * @param failures pairs that could not be compared (peer unreachable); retried on the next run
 */
public record SyncStats(
        int partitionsCompared, int partitionsDiffering, int leavesExchanged, long entriesSent, long entriesReceived,
        int failures) {
    public static final SyncStats NONE = new SyncStats(0, 0, 0, 0, 0, 0);

    SyncStats plus(SyncStats other) {
        return new SyncStats(partitionsCompared + other.partitionsCompared,
                partitionsDiffering + other.partitionsDiffering, leavesExchanged + other.leavesExchanged,
                entriesSent + other.entriesSent, entriesReceived + other.entriesReceived, failures + other.failures);
    }
}
