package dev.hangar.metadata.listing;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The object keys of one listing in S3's order: keys under a prefix, from a start, each once, and
 * the common prefix a key rolls up into at the first delimiter after the prefix. After a common
 * prefix the cursor seeks past every key under it, so a folder costs one seek (one range read on a
 * cluster), not one step per key.
 */
final class KeyWalk {
    private final OrderedCursor cursor;
    private final KeyLayout layout;
    private final byte[] prefix;
    private final byte[] lower;
    private final byte @Nullable [] delimiter;
    private boolean done;

    /**
     * Positions the cursor at the first record of the listing: at {@code start}, or at the prefix
     * if that is later.
     */
    KeyWalk(OrderedCursor cursor, KeyLayout layout, String prefix, @Nullable String delimiter, byte[] start) {
        this.cursor = cursor;
        this.layout = layout;
        this.prefix = ByteKeys.utf8(prefix);
        this.lower = layout.at(this.prefix);
        this.delimiter = delimiter == null ? null : ByteKeys.utf8(delimiter);
        cursor.seek(ByteKeys.max(lower, start));
    }

    /** The key of the record at the cursor, as its bytes; null once past the prefix. */
    byte @Nullable [] nextKey() {
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
    @Nullable String rollUp(byte[] key) {
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
