package dev.hangar.metadata.listing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ByteKeysTest {

    @Test
    void pastPrefixIncrementsTheLastByteWithCarry() {
        assertThat(ByteKeys.pastPrefix(new byte[] {'a', '/'})).containsExactly('a', '0');
        assertThat(ByteKeys.pastPrefix(new byte[] {'a', (byte) 0xFF})).containsExactly('b');
        assertThat(ByteKeys.pastPrefix(new byte[] {'a', (byte) 0xFE, (byte) 0xFF, (byte) 0xFF}))
                .containsExactly('a', (byte) 0xFF);
        assertThat(ByteKeys.pastPrefix(new byte[] {(byte) 0xFF, (byte) 0xFF})).isNull();
        assertThat(ByteKeys.pastPrefix(new byte[0])).isNull();
    }

    @Test
    void justAfterIsTheNextKeyInByteOrder() {
        byte[] key = {'a', 'b'};

        assertThat(ByteKeys.justAfter(key)).containsExactly('a', 'b', 0);
        assertThat(Arrays.compareUnsigned(ByteKeys.justAfter(key), new byte[] {'a', 'b', 0, 0})).isNegative();
    }

    @Test
    void indexOfFindsOnlyWhatFitsBeforeTheEnd() {
        byte[] bytes = ByteKeys.utf8("a/b//c");

        assertThat(ByteKeys.indexOf(bytes, ByteKeys.utf8("//"), 0, bytes.length)).isEqualTo(3);
        assertThat(ByteKeys.indexOf(bytes, ByteKeys.utf8("/"), 2, bytes.length)).isEqualTo(3);
        assertThat(ByteKeys.indexOf(bytes, ByteKeys.utf8("//"), 0, 4)).isEqualTo(-1);
    }

    @Test
    void int32SortsNonNegativeNumbersInOrderAndReadsBackFromTheEnd() {
        byte[] nine = ByteKeys.concat(ByteKeys.utf8("u"), ByteKeys.int32(9));
        byte[] ten = ByteKeys.concat(ByteKeys.utf8("u"), ByteKeys.int32(10));
        byte[] big = ByteKeys.concat(ByteKeys.utf8("u"), ByteKeys.int32(10_000));

        assertThat(Arrays.compareUnsigned(nine, ten)).isNegative();
        assertThat(Arrays.compareUnsigned(ten, big)).isNegative();
        assertThat(ByteKeys.int32At(big)).isEqualTo(10_000);
    }
}
