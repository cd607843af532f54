package dev.hangar.metadata.listing;

import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The items of one key when each of its records is one item, in record order. The cursor moves
 * past an item's record only when the next one is asked for: a listing whose page ends on an item
 * never steps past it, so a page of n records costs n steps, as a plain scan would.
 */
final class RecordItems<T> implements KeyItems<T> {
    private final OrderedCursor cursor;
    private final KeyLayout layout;
    private final String key;
    private final byte[] keyAt;
    private final byte[] keyBytes;
    private final RecordDecoder<T> decoder;
    /** Whether the cursor is still on the record of the item last returned. */
    private boolean onReturned;

    RecordItems(KeyRange range, String key, byte[] keyBytes, RecordDecoder<T> decoder) {
        this.cursor = range.cursor();
        this.layout = range.layout();
        this.key = key;
        this.keyBytes = keyBytes;
        this.keyAt = layout.at(keyBytes);
        this.decoder = decoder;
    }

    @Override
    public @Nullable T next() {
        byte[] recordKey = nextRecord();
        if (recordKey == null) {
            return null;
        }
        onReturned = true;
        return decoder.decode(key, recordKey, cursor.value());
    }

    @Override
    public void skipRest() {
        if (nextRecord() != null) {
            cursor.seek(layout.pastKey(keyBytes));
        }
    }

    /**
     * Moves past the key's records up to and including the first whose value {@code matches}, so
     * that {@link #next} continues after it; past all of them if none does.
     */
    void skipThrough(Predicate<byte[]> matches) {
        for (byte[] recordKey = nextRecord(); recordKey != null; recordKey = nextRecord()) {
            onReturned = true;
            if (matches.test(cursor.value())) {
                return;
            }
        }
    }

    /** The key of the key's record after the one last returned; null if the key has no more. */
    private byte @Nullable [] nextRecord() {
        if (onReturned) {
            cursor.next();
            onReturned = false;
        }
        byte[] recordKey = cursor.key();
        return recordKey != null && layout.isOf(recordKey, keyAt) ? recordKey : null;
    }
}
