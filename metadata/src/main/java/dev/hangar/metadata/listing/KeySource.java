package dev.hangar.metadata.listing;

/**
 * One store's records of a listing, as the rules read them: a cursor over the range, where the
 * object key sits in its record keys, and what each key holds.
 *
 * @param <T> what the listing lists of a key: a current object, a version, an upload
 */
public interface KeySource<T> {
    OrderedCursor cursor();

    KeyLayout layout();

    /**
     * The items of {@code key}, whose records start at the cursor. A key with no items (on a
     * cluster, one whose current version is a delete marker) is neither listed nor rolled up.
     *
     * @param keyBytes the key's UTF-8 bytes, as its record keys spell it
     */
    KeyItems<T> items(String key, byte[] keyBytes);

    /**
     * A source with one item per record: {@code scope key} (with {@link KeyLayout#keyIsRecord}) or
     * {@code scope key 0 ...}, each decoded by {@code decoder}.
     */
    static <T> KeySource<T> ofRecords(OrderedCursor cursor, KeyLayout layout, RecordDecoder<T> decoder) {
        return new KeySource<>() {
            @Override
            public OrderedCursor cursor() {
                return cursor;
            }

            @Override
            public KeyLayout layout() {
                return layout;
            }

            @Override
            public KeyItems<T> items(String key, byte[] keyBytes) {
                return new RecordItems<>(cursor, layout, key, keyBytes, decoder);
            }
        };
    }
}
