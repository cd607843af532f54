package dev.hangar.metadata.listing;

import java.util.Arrays;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One page of a listing in S3's order: the keys under a prefix, from a start, each key's items, or
 * the common prefix the key rolls up into at the first delimiter after the prefix, up to a number
 * of items and common prefixes together. After a common prefix the cursor seeks past every key under
 * it, so a folder costs one seek (one range read on a cluster), not one step per key. A page is
 * truncated only if an item or common prefix follows it; finding out reads the key that follows and
 * no further.
 */
final class KeyWalk {
    /** Receives the listed items of a page, in order. */
    @FunctionalInterface
    interface ItemSink<T> {
        /** @param firstOfKey whether the item is the first the page lists of its key */
        void accept(String key, T item, boolean firstOfKey);
    }

    private final OrderedCursor cursor;
    private final KeyLayout layout;
    private final byte[] prefix;
    private final byte[] lower;
    private final byte @Nullable [] delimiter;
    private boolean done;

    /** Positions the range's cursor at {@code start}, or at the prefix if that is later. */
    KeyWalk(KeyRange range, String prefix, @Nullable String delimiter, byte[] start) {
        this.cursor = range.cursor();
        this.layout = range.layout();
        this.prefix = ByteKeys.utf8(prefix);
        this.lower = layout.at(this.prefix);
        this.delimiter = delimiter == null ? null : ByteKeys.utf8(delimiter);
        cursor.seek(ByteKeys.max(lower, start));
    }

    /**
     * Lists at most {@code maxItems} items and common prefixes; a key with no items is passed over.
     *
     * @return whether the page is truncated
     */
    <T> boolean list(KeyReader<T> reader, int maxItems, ItemSink<T> items, Consumer<String> commonPrefixes) {
        int listed = 0;
        for (byte[] keyBytes = nextKey(); keyBytes != null; keyBytes = nextKey()) {
            String key = ByteKeys.string(keyBytes, 0, keyBytes.length);
            KeyItems<T> ofKey = reader.items(key, keyBytes);
            T item = ofKey.next();
            if (item == null) {
                ofKey.skipRest();
                continue;
            }
            if (listed == maxItems) {
                return true;
            }
            String common = rollUp(keyBytes);
            if (common != null) {
                commonPrefixes.accept(common);
                listed++;
                continue;
            }
            for (boolean first = true; item != null; item = ofKey.next(), first = false) {
                if (listed == maxItems) {
                    return true;
                }
                items.accept(key, item, first);
                listed++;
            }
            ofKey.skipRest();
        }
        return false;
    }

    /** The key of the record at the cursor, as its bytes; null once past the prefix. */
    private byte @Nullable [] nextKey() {
        byte[] recordKey = done ? null : cursor.key();
        if (recordKey == null || !ByteKeys.startsWith(recordKey, lower)) {
            done = true;
            return null;
        }
        return Arrays.copyOfRange(recordKey, layout.scopeLength(), layout.keyEnd(recordKey));
    }

    /**
     * The common prefix {@code key} rolls up into, if the delimiter follows the prefix in it; the
     * walk then continues past every key under it. Null if the key is listed by itself.
     */
    private @Nullable String rollUp(byte[] key) {
        int found = delimiter == null ? -1 : ByteKeys.indexOf(key, delimiter, prefix.length, key.length);
        if (found < 0) {
            return null;
        }
        byte[] common = Arrays.copyOf(key, found + delimiter.length);
        byte[] past = ByteKeys.pastPrefix(layout.at(common));
        if (past == null) {
            done = true;
        } else {
            cursor.seek(past);
        }
        return ByteKeys.string(common, 0, common.length);
    }
}
