package dev.hangar.metadata.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CounterTest {

    @Test
    void countsAreEightBytesLittleEndianAsUInt64AddOperatorReadsThem() {
        assertThat(Counter.encode(1)).containsExactly(1, 0, 0, 0, 0, 0, 0, 0);
        assertThat(Counter.encode(0x0102)).containsExactly(2, 1, 0, 0, 0, 0, 0, 0);
    }

    @Test
    void aNegativeDeltaIsItsTwosComplement() {
        // Added modulo 2^64, -1 is 2^64 - 1: 5 + (2^64 - 1) wraps to 4.
        assertThat(Counter.encode(-1)).containsOnly(0xFF);
        assertThat(Counter.decode(Counter.encode(-7))).isEqualTo(-7);
        assertThat(Counter.decode(Counter.encode(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
    }
}
