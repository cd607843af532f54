package dev.hangar.metadata.listing;

import dev.hangar.metadata.ObjectVersion;
import java.util.function.Function;

/**
 * The versions of a bucket as a version listing reads them: every version of a key, newest first,
 * delete markers included, and a way to resume inside a key after a version id marker. A key's
 * order of versions is the store's, not the ids' order, so where a marker stands is the store's
 * to find.
 */
public interface VersionSource extends KeySource<ObjectVersion> {
    /**
     * The versions of {@code key} older than its version {@code versionId}, whose records start at
     * the cursor; none if the key no longer has that version (deleted since the previous page: the
     * listing resumes after the key).
     */
    KeyItems<ObjectVersion> itemsAfter(String key, byte[] keyBytes, String versionId);

    /**
     * A source with one version per record, in listing order under each key, as the single node
     * keeps them ({@code scope key 0 sequence}): a marker is found by reading the key's records up to
     * it, {@code versionIdOf} reading no more of a value than its id.
     */
    static VersionSource ofRecords(OrderedCursor cursor, KeyLayout layout, RecordDecoder<ObjectVersion> decoder,
            Function<byte[], String> versionIdOf) {
        return new VersionSource() {
            @Override
            public OrderedCursor cursor() {
                return cursor;
            }

            @Override
            public KeyLayout layout() {
                return layout;
            }

            @Override
            public KeyItems<ObjectVersion> items(String key, byte[] keyBytes) {
                return new RecordItems<>(cursor, layout, key, keyBytes, decoder);
            }

            @Override
            public KeyItems<ObjectVersion> itemsAfter(String key, byte[] keyBytes, String versionId) {
                RecordItems<ObjectVersion> items = new RecordItems<>(cursor, layout, key, keyBytes, decoder);
                items.skipThrough(value -> versionIdOf.apply(value).equals(versionId));
                return items;
            }
        };
    }
}
