package dev.hangar.metadata.listing;

/**
 * What a store's object keys hold in a listing: a current object, versions, uploads.
 *
 * @param <T> what the listing lists of a key
 */
@FunctionalInterface
public interface KeyReader<T> {
    /**
     * The items of {@code key}, whose records start at the cursor. A key with no items (on a
     * cluster, one whose current version is a delete marker) is neither listed nor rolled up.
     *
     * @param keyBytes the key's UTF-8 bytes, as its record keys spell it
     */
    KeyItems<T> items(String key, byte[] keyBytes);

    /**
     * One item per record of the range: {@code scope key} (with {@link KeyLayout#keyIsRecord}) or
     * {@code scope key 0 ...}, each made by {@code decoder}.
     */
    static <T> KeyReader<T> ofRecords(KeyRange range, RecordDecoder<T> decoder) {
        return (key, keyBytes) -> new RecordItems<>(range, key, keyBytes, decoder);
    }
}
