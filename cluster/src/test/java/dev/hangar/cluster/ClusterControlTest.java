package dev.hangar.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import dev.hangar.cluster.membership.ClusterSettings;
import dev.hangar.cluster.membership.Consistency;
import dev.hangar.cluster.membership.MembershipTiming;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.membership.StaleLayoutException;
import dev.hangar.cluster.rpc.ClusterSecret;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Three control planes on loopback: discovery, bootstrap, a staged change applied everywhere, a node stopped. */
class ClusterControlTest {
    private static final MembershipTiming FAST = new MembershipTiming(Duration.ofMillis(100), 3, 8);

    @TempDir
    Path dir;

    private final List<ClusterControl> controls = new ArrayList<>();

    @AfterEach
    void close() {
        controls.forEach(ClusterControl::close);
    }

    private ClusterControl start(String id, List<InetSocketAddress> seeds) {
        ClusterSettings settings = new ClusterSettings(id, "default", 1, "127.0.0.1", 0, null, seeds, 3,
                Consistency.CONSISTENT, 3, ClusterSecret.of("control-test-secret-0123456789"), null,
                ClusterSettings.DEFAULT_MAX_CLOCK_SKEW);
        ClusterControl control = ClusterControl.start(settings, dir.resolve(id), FAST);
        controls.add(control);
        return control;
    }

    @Test
    void threeNodesBootstrapConvergeAndDetectAStoppedNode() {
        ClusterControl a = start("a", List.of());
        List<InetSocketAddress> seeds = List.of(a.address());
        ClusterControl b = start("b", seeds);
        ClusterControl c = start("c", seeds);
        List<ClusterControl> all = List.of(a, b, c);

        await(() -> all.stream().allMatch(n -> n.layout().version() == 1
                && n.statuses().values().stream().filter(s -> s.state() == PeerStatus.State.UP).count() == 3),
                "three nodes UP on layout 1");
        ClusterLayout first = a.layout();
        assertThat(first.partitions()).isEqualTo(256);
        assertThat(first.partitionCounts()).containsOnly(
                Map.entry(new NodeId("a"), 256), Map.entry(new NodeId("b"), 256), Map.entry(new NodeId("c"), 256));

        assertThatThrownBy(() -> b.apply(1)).isInstanceOf(IllegalStateException.class);
        b.stage(new NodeRole(new NodeId("c"), "z2", 2));
        assertThat(b.staged().roles()).containsKey(new NodeId("c"));
        assertThatThrownBy(() -> b.apply(0)).isInstanceOf(StaleLayoutException.class);
        assertThat(b.apply(1).version()).isEqualTo(2);
        await(() -> all.stream().allMatch(n -> n.layout().version() == 2), "every node on layout 2");
        assertThat(a.layout().role(new NodeId("c"))).contains(new NodeRole(new NodeId("c"), "z2", 2));

        c.close();
        controls.remove(c);
        await(() -> a.statuses().get(new NodeId("c")).state() != PeerStatus.State.UP
                && b.statuses().get(new NodeId("c")).state() != PeerStatus.State.UP, "c no longer UP");
    }

    @Test
    void nodeWithoutClusterSettingsHasNoControl() {
        NodeConfig config = new NodeConfig(dir.resolve("plain"), SyncPolicy.NONE, 1 << 20, Duration.ofMinutes(1));
        try (ClusterNode node = Cluster.node(config, MaintenanceConfig.DEFAULTS, null)) {
            assertThat(node.control()).isEmpty();
        }
        assertThat(dir.resolve("plain").resolve("node-id")).doesNotExist();
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 15 s: " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
