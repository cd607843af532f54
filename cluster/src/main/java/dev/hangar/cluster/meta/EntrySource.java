package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.RangePage;
import dev.hangar.cluster.table.ReplicatedTable;
import java.util.Arrays;
import java.util.Collection;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Where the metadata store reads entries from: the table's quorum reads, or a fixed set of entries
 * (what a blind write learned from the replicas' answers, or guesses before it knows).
 */
interface EntrySource {
    /** The live entry of a key, as {@link ReplicatedTable#get}. */
    CompletableFuture<Optional<Entry>> get(byte[] partitionKey, byte[] sortKey);

    /** Live entries of a partition key from a sort key and below another (null: no bound), as {@link ReplicatedTable#range}. */
    CompletableFuture<RangePage> range(byte[] partitionKey, byte[] fromSortKey, byte @Nullable [] untilSortKey, int limit);

    static EntrySource of(ReplicatedTable table) {
        return new EntrySource() {
            @Override
            public CompletableFuture<Optional<Entry>> get(byte[] partitionKey, byte[] sortKey) {
                return table.get(partitionKey, sortKey);
            }

            @Override
            public CompletableFuture<RangePage> range(byte[] partitionKey, byte[] fromSortKey,
                    byte @Nullable [] untilSortKey, int limit) {
                return table.range(partitionKey, fromSortKey, untilSortKey, limit);
            }
        };
    }

    /** Exactly {@code entries} (of one partition key; tombstones hide nothing else, they are just absent). */
    static EntrySource of(Collection<Entry> entries) {
        TreeMap<byte[], Entry> bySortKey = new TreeMap<>(Arrays::compareUnsigned);
        entries.stream().filter(entry -> !entry.isTombstone()).forEach(entry -> bySortKey.put(entry.sortKey(), entry));
        return new EntrySource() {
            @Override
            public CompletableFuture<Optional<Entry>> get(byte[] partitionKey, byte[] sortKey) {
                Entry entry = bySortKey.get(sortKey);
                return CompletableFuture.completedFuture(
                        entry != null && Arrays.equals(entry.partitionKey(), partitionKey) ? Optional.of(entry) : Optional.empty());
            }

            @Override
            public CompletableFuture<RangePage> range(byte[] partitionKey, byte[] fromSortKey,
                    byte @Nullable [] untilSortKey, int limit) {
                return CompletableFuture.completedFuture(new RangePage(bySortKey.tailMap(fromSortKey, true).values().stream()
                        .filter(entry -> Arrays.equals(entry.partitionKey(), partitionKey))
                        .filter(entry -> untilSortKey == null || Arrays.compareUnsigned(entry.sortKey(), untilSortKey) < 0)
                        .toList(), null));
            }
        };
    }
}
