package dev.hangar.metadata.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.BlockId;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class KeysTest {

    @Test
    void pastPrefixIncrementsTheLastByteWithCarry() {
        assertThat(Keys.pastPrefix(new byte[] {'a', '/'})).containsExactly('a', '0');
        assertThat(Keys.pastPrefix(new byte[] {'a', (byte) 0xFF})).containsExactly('b');
        assertThat(Keys.pastPrefix(new byte[] {'a', (byte) 0xFE, (byte) 0xFF, (byte) 0xFF}))
                .containsExactly('a', (byte) 0xFF);
        assertThat(Keys.pastPrefix(new byte[] {(byte) 0xFF, (byte) 0xFF})).isNull();
        assertThat(Keys.pastPrefix(new byte[0])).isNull();
    }

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

        assertThat(Keys.uploadName(key)).isEqualTo(new Keys.UploadName("photos", "dir/ünï", "u-1"));
        assertThat(Keys.startsWith(key, Keys.uploadsOfKey("photos", "dir/ünï"))).isTrue();
    }

    @Test
    void partKeysSortByNumber() {
        byte[] nine = Keys.part("u1", 9);
        byte[] ten = Keys.part("u1", 10);
        byte[] big = Keys.part("u1", 10_000);

        assertThat(Arrays.compareUnsigned(nine, ten)).isNegative();
        assertThat(Arrays.compareUnsigned(ten, big)).isNegative();
        assertThat(Keys.partNumber(big)).isEqualTo(10_000);
    }

    @Test
    void versionKeysSortNewestFirstAndSplitIntoTheirParts() {
        byte[] older = Keys.version("photos", "dir/ünï", 1_700_000_000_000_000L);
        byte[] newer = Keys.version("photos", "dir/ünï", 1_700_000_000_000_001L);
        byte[] nextKey = Keys.version("photos", "dir/ünï!", 0);

        assertThat(Arrays.compareUnsigned(newer, older)).isNegative();
        assertThat(Arrays.compareUnsigned(older, nextKey)).isNegative();
        assertThat(Keys.versionSequence(older)).isEqualTo(1_700_000_000_000_000L);
        assertThat(Keys.versionKey(older, Keys.bucketScope("photos").length)).isEqualTo("dir/ünï");
        assertThat(Keys.startsWith(older, Keys.versionsOfKey("photos", "dir/ünï"))).isTrue();
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

    @Test
    void commonPrefixMarkersAreRecognised() {
        assertThat(RollupScan.isCommonPrefix("a/", "", "/")).isTrue();
        assertThat(RollupScan.isCommonPrefix("p/a/", "p/", "/")).isTrue();
        assertThat(RollupScan.isCommonPrefix("p/", "p/", "/")).isFalse();
        assertThat(RollupScan.isCommonPrefix("a/b/", "", "/")).isFalse();
        assertThat(RollupScan.isCommonPrefix("a/", "", null)).isFalse();
        assertThat(RollupScan.isCommonPrefix("a/", "b", "/")).isFalse();
    }
}
