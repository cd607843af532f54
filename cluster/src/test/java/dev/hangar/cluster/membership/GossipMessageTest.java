package dev.hangar.cluster.membership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.cluster.layout.NodeId;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class GossipMessageTest {
    private static PeerInfo peer(String id, int port) {
        return new PeerInfo(new NodeId(id), "zone-" + id, 2, InetSocketAddress.createUnresolved("127.0.0.1", port));
    }

    @Test
    void roundTrips() {
        GossipMessage message = new GossipMessage(peer("a", 1000), "cluster-1", new LayoutDigest(7, -3),
                List.of(peer("b", 2000), peer("c", 65535)));
        assertThat(GossipMessage.decode(message.encode())).isEqualTo(message);
    }

    @Test
    void rejectsCorruptBytes() {
        byte[] bytes = new GossipMessage(peer("a", 1000), "", new LayoutDigest(1, 1), List.of()).encode();
        assertThatThrownBy(() -> GossipMessage.decode(Arrays.copyOf(bytes, bytes.length - 1)))
                .hasMessageContaining("truncated");
        assertThatThrownBy(() -> GossipMessage.decode(Arrays.copyOf(bytes, bytes.length + 1)))
                .hasMessageContaining("trailing");
        bytes[0] = 9;
        assertThatThrownBy(() -> GossipMessage.decode(bytes)).hasMessageContaining("format");
    }

    @Test
    void ordersDigestsByVersionThenHash() {
        assertThat(new LayoutDigest(2, 0).isNewerThan(new LayoutDigest(1, -1))).isTrue();
        assertThat(new LayoutDigest(1, -1).isNewerThan(new LayoutDigest(1, 5))).isTrue(); // unsigned
        assertThat(new LayoutDigest(1, 5).isNewerThan(new LayoutDigest(1, 5))).isFalse();
    }
}
