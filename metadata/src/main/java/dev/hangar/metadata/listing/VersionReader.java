package dev.hangar.metadata.listing;

import dev.hangar.metadata.ObjectVersion;
import java.util.function.Function;

/**
 * What a version listing reads of a key: every version, in the store's order (newest first),
 * delete markers included, and the versions after a version id marker. A key's order of versions is
 * the store's, not the ids' order, so where a marker stands is the store's to find.
 */
public interface VersionReader extends KeyReader<ObjectVersion> {
    /**
     * The versions of {@code key} older than its version {@code versionId}, whose records start at
     * the cursor; none if the key no longer has that version (deleted since the previous page: the
     * listing resumes after the key).
     */
    KeyItems<ObjectVersion> itemsAfter(String key, byte[] keyBytes, String versionId);

    /**
     * One version per record, in listing order under each key, as the single node keeps them
     * ({@code scope key 0 sequence}): a marker is found by reading the key's records up to it,
     * {@code versionIdOf} reading no more of a value than its id.
     */
    static VersionReader ofRecords(KeyRange range, RecordDecoder<ObjectVersion> decoder,
            Function<byte[], String> versionIdOf) {
        return new VersionReader() {
            @Override
            public KeyItems<ObjectVersion> items(String key, byte[] keyBytes) {
                return new RecordItems<>(range, key, keyBytes, decoder);
            }

            @Override
            public KeyItems<ObjectVersion> itemsAfter(String key, byte[] keyBytes, String versionId) {
                RecordItems<ObjectVersion> items = new RecordItems<>(range, key, keyBytes, decoder);
                items.skipThrough(value -> versionIdOf.apply(value).equals(versionId));
                return items;
            }
        };
    }
}
