package dev.hangar.cluster.membership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.cluster.rpc.ClusterSecret;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterSettingsTest {
    private static final ClusterSecret SECRET = ClusterSecret.of("settings-test-secret-0123456789");

    @Test
    void defaultsAreAClusterOfOne() {
        ClusterSettings settings = ClusterSettings.defaults(SECRET);
        assertThat(settings.nodeId()).isNull();
        assertThat(settings.zone()).isEqualTo("default");
        assertThat(settings.capacity()).isEqualTo(1);
        assertThat(settings.seeds()).isEmpty();
        assertThat(settings.replicationFactor()).isEqualTo(3);
        assertThat(settings.consistency()).isEqualTo(Consistency.CONSISTENT);
        assertThat(settings.bootstrapExpect()).isZero();
        assertThat(settings.tls()).isNull();
        assertThat(settings.maxClockSkew()).isEqualTo(Duration.ofMinutes(1));
        assertThat(settings.toString()).doesNotContain("settings-test-secret").contains("ClusterSecret[redacted]");
    }

    @Test
    void validates() {
        ClusterSettings ok = ClusterSettings.defaults(SECRET);
        assertThatThrownBy(() -> ok.withRole(" ", 1)).hasMessageContaining("zone");
        assertThatThrownBy(() -> ok.withRole("z", -1)).hasMessageContaining("capacity");
        assertThatThrownBy(() -> ok.withRpc("127.0.0.1", 70000)).hasMessageContaining("port");
        assertThatThrownBy(() -> ok.withReplication(0, Consistency.CONSISTENT)).hasMessageContaining("replication");
        assertThatThrownBy(() -> ok.withBootstrapExpect(-1)).hasMessageContaining("bootstrap");
        assertThatThrownBy(() -> ok.withNodeId("has space")).hasMessageContaining("node id");
        assertThat(ok.withRole("z", 0).capacity()).isZero();
    }

    @Test
    void quorums() {
        assertThat(Consistency.CONSISTENT.writeQuorum(3)).isEqualTo(2);
        assertThat(Consistency.CONSISTENT.readQuorum(3)).isEqualTo(2);
        assertThat(Consistency.CONSISTENT.writeQuorum(4)).isEqualTo(3);
        assertThat(Consistency.CONSISTENT.readQuorum(4)).isEqualTo(3);
        assertThat(Consistency.DEGRADED.writeQuorum(3)).isEqualTo(2);
        assertThat(Consistency.DEGRADED.readQuorum(3)).isEqualTo(1);
        assertThat(Consistency.DANGEROUS.writeQuorum(3)).isEqualTo(1);
        assertThat(Consistency.DANGEROUS.readQuorum(3)).isEqualTo(1);
        assertThat(Consistency.CONSISTENT.writeQuorum(1)).isEqualTo(1);
        for (int rf = 1; rf <= 7; rf++) {
            assertThat(Consistency.CONSISTENT.writeQuorum(rf) + Consistency.CONSISTENT.readQuorum(rf)).isGreaterThan(rf);
        }
        assertThat(Consistency.parse(" Degraded ")).isEqualTo(Consistency.DEGRADED);
        assertThatThrownBy(() -> Consistency.parse("eventual")).hasMessageContaining("consistent, degraded");
    }

    @Test
    void parsesSeeds() {
        List<InetSocketAddress> seeds = ClusterSettings.parseSeeds("node1:3901, 10.0.0.2:4000,[::1]:5000,");
        assertThat(seeds).extracting(InetSocketAddress::getHostString).containsExactly("node1", "10.0.0.2", "::1");
        assertThat(seeds).extracting(InetSocketAddress::getPort).containsExactly(3901, 4000, 5000);
        assertThatThrownBy(() -> ClusterSettings.parseSeeds("node1")).hasMessageContaining("host:port");
        assertThatThrownBy(() -> ClusterSettings.parseSeeds("node1:x")).hasMessageContaining("number");
    }

    @Test
    void advertisesTheBoundPortUnlessToldOtherwise() {
        InetSocketAddress bound = new InetSocketAddress("127.0.0.1", 4242);
        ClusterSettings settings = ClusterSettings.defaults(SECRET).withRpc("127.0.0.1", 0);
        assertThat(settings.advertised(bound)).isEqualTo(bound);
        ClusterSettings behindNat = new ClusterSettings(null, "z", 1, "0.0.0.0", 0,
                InetSocketAddress.createUnresolved("public.example", 0), List.of(), 3, Consistency.CONSISTENT, 0,
                SECRET, null, ClusterSettings.DEFAULT_MAX_CLOCK_SKEW);
        assertThat(behindNat.advertised(bound).getHostString()).isEqualTo("public.example");
        assertThat(behindNat.advertised(bound).getPort()).isEqualTo(4242);
    }
}
