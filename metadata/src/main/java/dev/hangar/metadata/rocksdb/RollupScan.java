package dev.hangar.metadata.rocksdb;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of an S3-style listing over the keys of one bucket: names under a prefix, in byte
 * order, after a start key, rolled up at a delimiter. Shared by object, version and upload
 * listings, which differ only in where the name ends inside a record key.
 *
 * <p>A common prefix costs one seek, not a scan of the keys under it: after returning it, the
 * cursor jumps to the first key past it. Whether the page is truncated is decided by looking at
 * what comes after its last item, so a page that ends exactly at the end is not truncated.
 */
final class RollupScan {
    private RollupScan() {}

    /**
     * Where the listed name ends in a record key: objects at its end, versions before the
     * sequence, uploads before the id.
     */
    @FunctionalInterface
    interface NameEnd {
        int in(byte[] recordKey);
    }

    /** One listed item: an entry (its record key and value) or a common prefix. */
    sealed interface Item {
        record Entry(byte[] recordKey, byte[] value) implements Item {}

        record CommonPrefix(String prefix) implements Item {}
    }

    record Page(List<Item> items, boolean truncated) {
        static final Page EMPTY = new Page(List.of(), false);
    }

    /**
     * Lists at most {@code limit} items of {@code family} whose names start with {@code prefix},
     * from {@code start} (or the first key under the prefix if that is later).
     *
     * @param scope the bytes every record key of the bucket starts with ({@code bucket 0})
     * @param start the first record key that may be listed; null if nothing may
     */
    static Page scan(
            Database database,
            Family family,
            byte[] scope,
            String prefix,
            @Nullable String delimiter,
            byte @Nullable [] start,
            int limit,
            NameEnd nameEnd) {
        if (limit <= 0 || start == null) {
            return Page.EMPTY;
        }
        byte[] lower = Keys.concat(scope, Keys.utf8(prefix));
        byte[] delimiterBytes = delimiter == null ? null : Keys.utf8(delimiter);
        List<Item> items = new ArrayList<>();
        try (Database.Cursor cursor = database.cursor(family, Keys.pastPrefix(lower))) {
            cursor.seek(Keys.max(lower, start));
            while (cursor.valid()) {
                byte[] recordKey = cursor.key();
                if (!Keys.startsWith(recordKey, lower)) {
                    break;
                }
                if (items.size() == limit) {
                    return new Page(items, true);
                }
                int found = delimiterBytes == null
                        ? -1
                        : Keys.indexOf(recordKey, delimiterBytes, lower.length, nameEnd.in(recordKey));
                if (found < 0) {
                    items.add(new Item.Entry(recordKey, cursor.value()));
                    cursor.next();
                    continue;
                }
                int rolledEnd = found + delimiterBytes.length;
                items.add(new Item.CommonPrefix(Keys.string(recordKey, scope.length, rolledEnd)));
                byte[] past = Keys.pastPrefix(Arrays.copyOf(recordKey, rolledEnd));
                if (past == null) {
                    break;
                }
                cursor.seek(past);
            }
        }
        return new Page(items, false);
    }

    /**
     * Whether a marker names a common prefix this listing returns: it starts with the prefix and
     * its first delimiter after the prefix ends it. Everything under such a marker was rolled up
     * into it, so resuming after it skips all of it.
     */
    static boolean isCommonPrefix(String marker, String prefix, @Nullable String delimiter) {
        return delimiter != null
                && marker.startsWith(prefix)
                && marker.endsWith(delimiter)
                && marker.indexOf(delimiter, prefix.length()) == marker.length() - delimiter.length();
    }

    /**
     * The first record key after {@code marker} (a name of this scope), exclusive: past everything
     * under it when it is a common prefix, else just after the marker itself.
     */
    static byte @Nullable [] after(byte[] markerKey, boolean markerIsCommonPrefix) {
        return markerIsCommonPrefix ? Keys.pastPrefix(markerKey) : Keys.justAfter(markerKey);
    }
}
