package dev.hangar.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.BlockId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BlockBloomFilterTest {

    @Test
    void everyAddedIdIsFoundAndFewOthersAre() {
        int count = 100_000;
        BlockBloomFilter filter = BlockBloomFilter.forExpected(count);
        List<BlockId> added = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            BlockId id = BlockId.random();
            added.add(id);
            filter.add(id);
        }

        assertThat(added).allMatch(filter::mightContain);
        int falsePositives = 0;
        for (int i = 0; i < count; i++) {
            if (filter.mightContain(BlockId.random())) {
                falsePositives++;
            }
        }
        // 16 to 32 bits per id and 3 slices: well under 1 %.
        assertThat(falsePositives).isLessThan(count / 100);
    }

    @Test
    void sizeIsAPowerOfTwoWithAtLeastSixteenBitsPerIdWithinBounds() {
        assertThat(BlockBloomFilter.forExpected(0).bits()).isEqualTo(1 << 12);
        assertThat(BlockBloomFilter.forExpected(1000).bits()).isEqualTo(1 << 14);
        assertThat(BlockBloomFilter.forExpected(1L << 40).bits()).isEqualTo(1L << 30);
    }
}
