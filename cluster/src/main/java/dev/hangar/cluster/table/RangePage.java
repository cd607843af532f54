package dev.hangar.cluster.table;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of a range read: the live entries in sort-key order and where the next page starts.
 *
 * <p>A page may hold fewer than the limit of live entries while more follow (a replica stops at
 * {@code limit} entries that are no deletions or at a cap of entries in all, deletions included;
 * entries another replica deleted are dropped; and only keys every answering replica has covered
 * are returned): continue while {@code nextSortKey} is not null.
 *
 * @param entries live entries (no tombstones), in unsigned bytewise order of sort key
 * @param nextSortKey the inclusive start of the next page, or null when the range is exhausted
 */
public record RangePage(List<Entry> entries, byte @Nullable [] nextSortKey) {
    public RangePage {
        entries = List.copyOf(entries);
    }

    public boolean hasMore() {
        return nextSortKey != null;
    }
}
