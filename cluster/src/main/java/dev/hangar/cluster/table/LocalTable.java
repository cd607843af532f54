package dev.hangar.cluster.table;

import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One replica's copy of a table. Implementations are thread-safe; calls may block on disk, so they
 * must not run on a Netty I/O thread.
 */
public interface LocalTable extends AutoCloseable {
    /** Number of partitions the key space is split into; partition numbers are below it. */
    int partitions();

    /** The partition that holds every entry of {@code partitionKey}. */
    int partitionOf(byte[] partitionKey);

    /** The rule by which this replica merges entries: the rule of the table it holds. */
    MergeRule mergeRule();

    /**
     * Merges {@code entry} into the stored entry of its key under {@link #mergeRule} and
     * returns what is stored afterwards: {@code entry} if it won, the stored one if that won, or
     * what the rule built from both (a rule that joins fields of the two).
     */
    Entry merge(Entry entry);

    /**
     * Merges {@code entry} as {@link #merge} does and returns the entry stored before it, if any —
     * also when that one won and stays.
     */
    Optional<Entry> swap(Entry entry);

    /**
     * Tells {@code watcher} of every merge in which one entry lost to another, the loser first:
     * the stored entry an arriving one replaced, or an arriving entry the stored one refused (both,
     * to what the rule built from them, when it joined them). Every
     * write, read repair and anti-entropy exchange merges here, so a replica sees each entry it ever
     * held lose, once something beat it. The watcher runs on the merging thread, after the merge;
     * what it throws is ignored. Returns what stops the watching.
     */
    default Runnable watchLosers(BiConsumer<Entry, Entry> watcher) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " reports no losers");
    }

    /** The stored entry, tombstones included. */
    Optional<Entry> get(byte[] partitionKey, byte[] sortKey);

    /**
     * Up to {@code limit} stored entries of {@code partitionKey} with sort keys at or above {@code
     * fromSortKey}, in unsigned bytewise order of sort key, tombstones included (a reader merging
     * several replicas needs them to hide values other replicas still hold).
     */
    default List<Entry> range(byte[] partitionKey, byte[] fromSortKey, int limit) {
        return range(partitionKey, fromSortKey, null, limit);
    }

    /** {@link #range(byte[], byte[], int)} of the sort keys below {@code untilSortKey} only (null: no bound). */
    List<Entry> range(byte[] partitionKey, byte[] fromSortKey, byte @Nullable [] untilSortKey, int limit);

    /**
     * {@link #range(byte[], byte[], byte[], int)} in which only entries that are no {@link
     * MergeRule#isDeletion deletions} of {@link #mergeRule} count against {@code limit}: it stops after
     * {@code limit} of those, or after {@code cap} entries in all, deletions included. Fewer than
     * both means the range is exhausted. So a reader pays for the deleted keys it passes only per
     * {@code cap} of them, not per {@code limit}.
     */
    List<Entry> rangeCountingLive(byte[] partitionKey, byte[] fromSortKey, byte @Nullable [] untilSortKey, int limit,
            int cap);

    /** Visits every stored entry of one partition, in key order, tombstones included. */
    void forEachInPartition(int partition, Consumer<Entry> visitor);

    /**
     * Deletes the entries that {@link #mergeRule} calls deletions (tombstones, at least) whose wall
     * time is before {@code wallMillis}; returns how many.
     */
    int purgeTombstonesBefore(long wallMillis);

    @Override
    void close();
}
