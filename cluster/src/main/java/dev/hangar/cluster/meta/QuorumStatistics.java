package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Entry;
import dev.hangar.metadata.StoreStatistics;

/**
 * The statistics of the whole store, counted from quorum reads: the buckets, then each bucket's
 * objects and uploads, a page at a time. A write acknowledged by a write quorum is in every read
 * quorum, so the count includes every mutation that completed before it began, whichever node
 * coordinated it — what a single node's counters give, at the price of reading every entry (the
 * cluster keeps no global counters). Mutations that run during the count may be in it or not.
 */
final class QuorumStatistics {
    private static final int PAGE = 1000;
    private static final byte[] FIRST = new byte[0];

    private QuorumStatistics() {}

    static StoreStatistics count(EntrySource quorum) {
        StatisticsTally tally = new StatisticsTally();
        RangeCursor buckets = new RangeCursor(quorum, MetaKeys.buckets(), FIRST, PAGE, "count the buckets");
        for (Entry bucket = buckets.take(); bucket != null; bucket = buckets.take()) {
            tally.add(bucket);
            String name = MetaKeys.bucketOf(bucket.sortKey());
            countAll(quorum, MetaKeys.objects(name), "count the objects of " + name, tally);
            countAll(quorum, MetaKeys.uploads(name), "count the uploads of " + name, tally);
        }
        return tally.statistics();
    }

    private static void countAll(EntrySource quorum, byte[] partitionKey, String what, StatisticsTally tally) {
        RangeCursor entries = new RangeCursor(quorum, partitionKey, FIRST, PAGE, what);
        for (Entry entry = entries.take(); entry != null; entry = entries.take()) {
            tally.add(entry);
        }
    }
}
