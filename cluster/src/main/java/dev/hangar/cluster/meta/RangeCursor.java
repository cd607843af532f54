package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.RangePage;
import dev.hangar.metadata.listing.OrderedCursor;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The live entries of one partition key in sort-key order, below an optional bound, read from an
 * {@link EntrySource} (the table's quorum) a page at a time, with forward {@link #seek}s: a listing
 * that rolls keys up into a common prefix, or that has read what it needs of an object key, jumps
 * past the rest rather than reading it. The bound keeps a reader of one object key, or of one
 * prefix, from reading past it. It is the {@link OrderedCursor} that the listing rules read on a
 * cluster: a seek that lands inside the page already read costs nothing, one past it costs the next
 * page's round when something is read there.
 */
final class RangeCursor implements OrderedCursor {
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

    /** The next live entry, taken: null at the end of the partition key. */
    @Nullable Entry take() {
        Entry next = peek();
        if (next != null) {
            buffered.poll();
        }
        return next;
    }

    /** The entry {@link #take} would return, without taking it. */
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

    @Override
    public byte @Nullable [] key() {
        Entry next = peek();
        return next == null ? null : next.sortKey();
    }

    /** The value of the entry at the cursor, live, so never null. */
    @Override
    public byte[] value() {
        Entry next = Objects.requireNonNull(peek(), "no entry at the cursor");
        return Objects.requireNonNull(next.value(), "a live entry");
    }

    @Override
    public void next() {
        take();
    }

    /** Skips every entry below {@code from}. */
    @Override
    public void seek(byte[] from) {
        while (!buffered.isEmpty() && Arrays.compareUnsigned(buffered.peek().sortKey(), from) < 0) {
            buffered.poll();
        }
        // A page covers every key up to where the next one starts, so only an emptied buffer moves it.
        if (buffered.isEmpty() && nextFrom != null && Arrays.compareUnsigned(nextFrom, from) < 0) {
            nextFrom = from;
        }
    }
}
