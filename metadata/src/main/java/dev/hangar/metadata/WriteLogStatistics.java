package dev.hangar.metadata;

/**
 * How the metadata's write-ahead log was synced since the store opened. Concurrent writers join
 * one write group whose leader writes and syncs the log for all of them (RocksDB's group commit),
 * so {@code groupedWrites / groups} is the mean group size.
 *
 * @param syncs log syncs ({@code fdatasync}): one per group with {@code sync=always}, one per round
 *     with {@code batch}
 * @param groups write groups: writes a leader carried out, its own and its followers'
 * @param groupedWrites every write through the log, leaders' and followers' alike
 */
public record WriteLogStatistics(long syncs, long groups, long groupedWrites) {
    public static final WriteLogStatistics NONE = new WriteLogStatistics(0, 0, 0);
}
