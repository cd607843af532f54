package dev.hangar.metadata.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.BlockId;
import dev.hangar.metadata.listing.ByteKeys;
import dev.hangar.metadata.listing.KeyLayout;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class KeysTest {

    @Test
    void objectKeysOfABucketSortBeforeThoseOfALongerBucketName() {
        byte[] last = Keys.object("a", "\uFFFF\uFFFF");
        byte[] first = Keys.object("ab", "");

        assertThat(Arrays.compareUnsigned(last, first)).isNegative();
    }

    @Test
    void onlyObjectKeysWithANulAfterTheBucketAreUnversionable() {
        assertThat(Keys.isUnversionableObject("photos\0a".getBytes(UTF_8))).isFalse();
        assertThat(Keys.isUnversionableObject("photos\0".getBytes(UTF_8))).isFalse();
        assertThat(Keys.isUnversionableObject("photos\0nul\0key".getBytes(UTF_8)))
                .isTrue();
        assertThat(Keys.isUnversionableObject("photos\0trailing\0".getBytes(UTF_8)))
                .isTrue();
    }

    @Test
    void uploadKeysSplitIntoTheirParts() {
        byte[] key = Keys.upload("photos", "dir/ünï", "u-1");

        assertThat(Keys.uploadId(key)).isEqualTo("u-1");
        assertThat(ByteKeys.startsWith(key, Keys.uploadsOfKey("photos", "dir/ünï"))).isTrue();
    }

    @Test
    void partKeysSortByNumber() {
        byte[] nine = Keys.part("u1", 9);
        byte[] ten = Keys.part("u1", 10);
        byte[] big = Keys.part("u1", 10_000);

        assertThat(Arrays.compareUnsigned(nine, ten)).isNegative();
        assertThat(Arrays.compareUnsigned(ten, big)).isNegative();
        assertThat(ByteKeys.int32At(big)).isEqualTo(10_000);
    }

    @Test
    void versionKeysSortNewestFirstAndSplitIntoTheirParts() {
        byte[] older = Keys.version("photos", "dir/ünï", 1_700_000_000_000_000L);
        byte[] newer = Keys.version("photos", "dir/ünï", 1_700_000_000_000_001L);
        byte[] nextKey = Keys.version("photos", "dir/ünï!", 0);

        assertThat(Arrays.compareUnsigned(newer, older)).isNegative();
        assertThat(Arrays.compareUnsigned(older, nextKey)).isNegative();
        assertThat(Keys.versionSequence(older)).isEqualTo(1_700_000_000_000_000L);
        // The listings find the object key of a version record where its layout says it ends.
        assertThat(KeyLayout.keyThenSeparator(Keys.bucketScope("photos")).keyEnd(older))
                .isEqualTo(Keys.versionsOfKey("photos", "dir/ünï").length - 1);
        assertThat(ByteKeys.startsWith(older, Keys.versionsOfKey("photos", "dir/ünï"))).isTrue();
        assertThat(Keys.version(Keys.versionsOfKey("photos", "dir/ünï"), 7)).isEqualTo(Keys.version("photos", "dir/ünï", 7));
    }

    @Test
    void versionKeysRefuseNul() {
        assertThat(Keys.isVersionable("a\0b")).isFalse();
        assertThat(Keys.isVersionable("a/b")).isTrue();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Keys.versionsOfKey("photos", "a\0b"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void objectKeysSplitAtTheFirstSeparator() {
        assertThat(Keys.objectName(Keys.object("photos", "a\0b")))
                .isEqualTo(new Keys.ObjectName("photos", "a\0b"));
    }

    @Test
    void blockIdsTakeSixteenBytes() {
        BlockId id = BlockId.random();

        assertThat(Keys.garbage(id)).hasSize(16);
        assertThat(Keys.garbageId(Keys.garbage(id))).isEqualTo(id);
    }
}
