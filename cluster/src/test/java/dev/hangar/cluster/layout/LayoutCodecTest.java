package dev.hangar.cluster.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class LayoutCodecTest {
    @Test
    void roundTrips() {
        ClusterLayout layout = LayoutPlanner.plan(null, List.of(
                new NodeRole(NodeId.random(), "eu-1", 1000),
                new NodeRole(NodeId.random(), "eu-2", 2000),
                new NodeRole(NodeId.random(), "eu-3", 1500),
                new NodeRole(NodeId.random(), "eu-3", 0)), 3);
        byte[] bytes = LayoutCodec.encode(layout);
        assertThat(bytes[0]).isEqualTo(LayoutCodec.FORMAT);
        assertThat(LayoutCodec.decode(bytes)).isEqualTo(layout);
    }

    @Test
    void roundTripsTheEmptyLayout() {
        ClusterLayout empty = ClusterLayout.empty(16, 3);
        assertThat(LayoutCodec.decode(LayoutCodec.encode(empty))).isEqualTo(empty);
    }

    @Test
    void refusesUnknownFormatsAndTruncatedBytes() {
        byte[] bytes = LayoutCodec.encode(ClusterLayout.empty(16, 3));
        byte[] future = bytes.clone();
        future[0] = 99;
        assertThatThrownBy(() -> LayoutCodec.decode(future)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("format");
        assertThatThrownBy(() -> LayoutCodec.decode(Arrays.copyOf(bytes, bytes.length - 1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
