package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.RangePage;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import org.jspecify.annotations.Nullable;

/**
 * The live entries of one partition key in sort-key order, below an optional bound, read from an
 * {@link EntrySource} (the table's quorum) a page at a time, with forward {@link #seek}s: a listing
 * that rolls keys up into a common prefix, or that has read what it needs of an object key, jumps
 * past the rest rather than reading it. The bound keeps a reader of one object key, or of one
 * prefix, from reading past it.
 */
final class RangeCursor {
    private final EntrySource source;
    private final byte[] partitionKey;
    private final int pageSize;
    private final String what;
    private final byte @Nullable [] until;
    private final Deque<Entry> buffered = new ArrayDeque<>();
    /** Where the next page starts; null once the range is exhausted. */
    private byte @Nullable [] nextFrom;

    RangeCursor(EntrySource source, byte[] partitionKey, byte[] from, int pageSize, String what) {
        this(source, partitionKey, from, null, pageSize, what);
    }

    /** A cursor over the sort keys from {@code from} and below {@code until} (null: the partition key's end). */
    RangeCursor(EntrySource source, byte[] partitionKey, byte[] from, byte @Nullable [] until, int pageSize,
            String what) {
        this.source = source;
        this.until = until;
        this.partitionKey = partitionKey;
        this.pageSize = Math.max(1, pageSize);
        this.what = what;
        this.nextFrom = from;
    }

    /** The next live entry, or null at the end of the partition key. */
    @Nullable Entry next() {
        Entry next = peek();
        if (next != null) {
            buffered.poll();
        }
        return next;
    }

    /** The entry {@link #next} would return, without taking it. */
    @Nullable Entry peek() {
        while (buffered.isEmpty()) {
            if (nextFrom == null) {
                return null;
            }
            RangePage page = Replies.join(source.range(partitionKey, nextFrom, until, pageSize), what);
            buffered.addAll(page.entries());
            nextFrom = page.nextSortKey();
        }
        return buffered.peek();
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
