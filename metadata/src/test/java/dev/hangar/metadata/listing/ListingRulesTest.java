package dev.hangar.metadata.listing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The marker rule by itself, and what the rules cost a store: a page of n records is one seek and
 * n steps, a common prefix one more seek however many keys it holds (the single node's RocksDB
 * tickers count the same in {@code RocksDbListingScaleTest}).
 */
class ListingRulesTest {
    private static final byte[] SCOPE = ByteKeys.utf8("photos\0");

    @Test
    void commonPrefixMarkersAreRecognised() {
        assertThat(ListingRules.isCommonPrefix("a/", "", "/")).isTrue();
        assertThat(ListingRules.isCommonPrefix("p/a/", "p/", "/")).isTrue();
        assertThat(ListingRules.isCommonPrefix("p/", "p/", "/")).isFalse();
        assertThat(ListingRules.isCommonPrefix("a/b/", "", "/")).isFalse();
        assertThat(ListingRules.isCommonPrefix("a/", "", null)).isFalse();
        assertThat(ListingRules.isCommonPrefix("a/", "b", "/")).isFalse();
    }

    @Test
    void aPageOfObjectsIsOneSeekAndAStepPerObject() {
        MemoryCursor cursor = objects("a", "b", "c", "d", "e");

        ObjectListing page = objects(new ListQuery("", null, "a", 3), cursor);

        assertThat(page.entries()).extracting(ObjectVersion::key).containsExactly("b", "c", "d");
        assertThat(page.nextMarker()).isEqualTo("d");
        assertThat(cursor.seeks()).isEqualTo(1);
        assertThat(cursor.nexts()).isEqualTo(3);
    }

    @Test
    void aCommonPrefixIsOneSeekWhateverItHolds() {
        MemoryCursor cursor = objects("a", "big/1", "big/2", "big/3", "big/4", "z");

        ObjectListing page = objects(new ListQuery("", "/", null, 10), cursor);

        assertThat(page.entries()).extracting(ObjectVersion::key).containsExactly("a", "z");
        assertThat(page.commonPrefixes()).containsExactly("big/");
        assertThat(cursor.seeks()).isEqualTo(2);
        assertThat(cursor.nexts()).isEqualTo(2);
    }

    @Test
    void aVersionPageResumesInsideItsKeyAfterTheMarkerVersion() {
        MemoryCursor cursor = new MemoryCursor();
        KeyLayout layout = KeyLayout.keyThenSeparator(SCOPE);
        List<String> ids = List.of("v3", "v2", "v1");
        for (int i = 0; i < ids.size(); i++) {
            cursor.put(ByteKeys.concat(layout.at(ByteKeys.utf8("k")), new byte[] {0},
                    ByteBuffer.allocate(Long.BYTES).putLong(~(10L - i)).array()), ByteKeys.utf8(ids.get(i)));
        }
        KeyRange range = new KeyRange(cursor, layout);
        VersionReader versions = VersionReader.ofRecords(range,
                (key, recordKey, value) -> version(key, ByteKeys.string(value, 0, value.length)),
                value -> ByteKeys.string(value, 0, value.length));

        VersionListing page = ListingRules.versions(new VersionQuery("", null, "k", "v3", 10), range, versions);

        assertThat(page.versions()).extracting(listed -> listed.version().versionId()).containsExactly("v2", "v1");
        assertThat(page.versions()).extracting(listed -> listed.latest()).containsOnly(false);
        assertThat(page.truncated()).isFalse();
    }

    private static MemoryCursor objects(String... keys) {
        MemoryCursor cursor = new MemoryCursor();
        for (String key : keys) {
            cursor.put(ByteKeys.concat(SCOPE, ByteKeys.utf8(key)), new byte[0]);
        }
        return cursor;
    }

    private static ObjectListing objects(ListQuery query, MemoryCursor cursor) {
        KeyRange range = new KeyRange(cursor, KeyLayout.keyIsRecord(SCOPE));
        return ListingRules.objects(query, range, KeyReader.ofRecords(range, (key, recordKey, value) -> version(key, "null")));
    }

    private static ObjectVersion version(String key, String versionId) {
        return new ObjectVersion("photos", key, versionId, Instant.EPOCH, 0, "\"\"", new ObjectContent.DeleteMarker(),
                Map.of(), Map.of(), null, List.of());
    }
}
