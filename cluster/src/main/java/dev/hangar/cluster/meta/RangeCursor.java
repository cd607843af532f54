package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.RangePage;
import dev.hangar.cluster.table.ReplicatedTable;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import org.jspecify.annotations.Nullable;

/**
 * The live entries of one partition key in sort-key order, read from the table a quorum page at a
 * time, with forward {@link #seek}s: a listing that rolls keys up into a common prefix jumps past
 * them rather than reading them.
 */
final class RangeCursor {
    private final ReplicatedTable table;
    private final byte[] partitionKey;
    private final int pageSize;
    private final String what;
    private final Deque<Entry> buffered = new ArrayDeque<>();
    /** Where the next page starts; null once the range is exhausted. */
    private byte @Nullable [] nextFrom;

    RangeCursor(ReplicatedTable table, byte[] partitionKey, byte[] from, int pageSize, String what) {
        this.table = table;
        this.partitionKey = partitionKey;
        this.pageSize = Math.max(1, pageSize);
        this.what = what;
        this.nextFrom = from;
    }

    /** The next live entry, or null at the end of the partition key. */
    @Nullable Entry next() {
        while (buffered.isEmpty()) {
            if (nextFrom == null) {
                return null;
            }
            RangePage page = Replies.join(table.range(partitionKey, nextFrom, pageSize), what);
            buffered.addAll(page.entries());
            nextFrom = page.nextSortKey();
        }
        return buffered.poll();
    }

    /** Skips every entry below {@code from}. */
    void seek(byte[] from) {
        while (!buffered.isEmpty() && Arrays.compareUnsigned(buffered.peek().sortKey(), from) < 0) {
            buffered.poll();
        }
        // A page covers every key up to where the next one starts, so only an emptied buffer moves it.
        if (buffered.isEmpty() && nextFrom != null && Arrays.compareUnsigned(nextFrom, from) < 0) {
            nextFrom = from;
        }
    }
}
