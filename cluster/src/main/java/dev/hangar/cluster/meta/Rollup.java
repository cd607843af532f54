package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Entry;
import java.util.Arrays;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The names of an S3 listing of uploads over one partition key: entries whose names start with a prefix,
 * rolled up into a common prefix at the first delimiter after it, each common prefix once. After
 * a common prefix the cursor seeks past every key under it, so a folder costs one range read, not
 * one per key.
 */
final class Rollup {
    /** Where the listed name ends in a sort key: objects at its end, uploads before the id. */
    @FunctionalInterface
    interface NameEnd {
        int in(byte[] sortKey);
    }

    sealed interface Item {
        record Listed(Entry entry) implements Item {}

        record CommonPrefix(String prefix) implements Item {}
    }

    private final RangeCursor cursor;
    private final byte[] prefix;
    private final byte @Nullable [] delimiter;
    private final NameEnd nameEnd;
    private final Predicate<Entry> listed;
    private boolean done;

    /**
     * @param cursor positioned at or after {@code prefix}
     * @param listed which entries the listing shows at all; the others neither appear nor roll up
     */
    Rollup(RangeCursor cursor, byte[] prefix, byte @Nullable [] delimiter, NameEnd nameEnd, Predicate<Entry> listed) {
        this.cursor = cursor;
        this.prefix = prefix;
        this.delimiter = delimiter;
        this.nameEnd = nameEnd;
        this.listed = listed;
    }

    /** The next entry or common prefix, or null when the listing is exhausted. */
    @Nullable Item next() {
        while (!done) {
            Entry entry = cursor.next();
            if (entry == null || !MetaKeys.startsWith(entry.sortKey(), prefix)) {
                done = true;
                break;
            }
            if (!listed.test(entry)) {
                continue;
            }
            byte[] sortKey = entry.sortKey();
            int found = delimiter == null
                    ? -1
                    : MetaKeys.indexOf(sortKey, delimiter, prefix.length, nameEnd.in(sortKey));
            if (found < 0) {
                return new Item.Listed(entry);
            }
            int rolledEnd = found + delimiter.length;
            byte[] past = MetaKeys.pastPrefix(Arrays.copyOf(sortKey, rolledEnd));
            if (past == null) {
                done = true;
            } else {
                cursor.seek(past);
            }
            return new Item.CommonPrefix(MetaKeys.string(sortKey, 0, rolledEnd));
        }
        return null;
    }

    /**
     * Whether a marker names a common prefix this listing returns: it starts with the prefix, and
     * the first delimiter after the prefix ends it.
     */
    static boolean isCommonPrefix(String marker, String prefix, @Nullable String delimiter) {
        return delimiter != null
                && marker.startsWith(prefix)
                && marker.endsWith(delimiter)
                && marker.indexOf(delimiter, prefix.length()) == marker.length() - delimiter.length();
    }
}
