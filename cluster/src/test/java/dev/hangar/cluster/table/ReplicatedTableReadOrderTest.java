package dev.hangar.cluster.table;

import static dev.hangar.cluster.table.TableCluster.b;
import static dev.hangar.cluster.table.TableCluster.valueOf;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.membership.PeerStatus.State;
import dev.hangar.cluster.membership.ReplicaOrder;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Which replicas a quorum read asks first: those membership believes up ({@link ReplicaOrder}), so
 * that a replica known to be silent does not cost the table's 5 s call timeout. Three nodes, each a
 * replica of every partition, quorums of 2; node a coordinates.
 */
@Timeout(60)
class ReplicatedTableReadOrderTest {
    private static final TableConfig CONFIG = TableConfig.consistent("order");
    private static final NodeId A = new NodeId("a");
    private static final byte[] BUCKET = b("bucket");

    @TempDir
    Path dir;

    private static ReplicatedTable coordinator(TableCluster cluster) {
        return cluster.node("a").table();
    }

    /** The replica a read through a asks besides itself when it knows nothing of membership. */
    private static NodeId closestOther(TableCluster cluster) {
        List<NodeId> replicas = cluster.layout.replicas(cluster.node("a").local().partitionOf(BUCKET));
        NodeId closest = ReplicaOrder.readOrder(cluster.layout, A, replicas, Map.of()).get(1);
        assertThat(replicas).as("a and two others").hasSize(3).contains(A);
        return closest;
    }

    private static void believe(TableCluster cluster, NodeId node, State state) {
        cluster.statuses.put(node, new PeerStatus(node, "zone-" + node.value(), 100,
                InetSocketAddress.createUnresolved(node.value(), 1), state, Instant.EPOCH, 1));
    }

    /**
     * The replica that a's read would ask besides its own dies silently (its messages are dropped,
     * so calls to it time out) and a's membership has noticed: get and range ask the other live
     * replica at once, in one round, well under the call timeout. Closest first regardless of
     * liveness, each read waited the whole 5 s on the dead one before asking the third.
     */
    @ParameterizedTest
    @EnumSource(value = State.class, names = {"SUSPECT", "DOWN"})
    @Timeout(30)
    void aQuorumReadSkipsAReplicaBelievedSilent(State believed) throws InterruptedException {
        try (TableCluster cluster = new TableCluster(dir, CONFIG, "a", "b", "c")) {
            ReplicatedTable coordinator = coordinator(cluster);
            for (String key : List.of("k1", "k2", "k3")) {
                coordinator.put(BUCKET, b(key), b("v-" + key)).join();
            }
            NodeId dead = closestOther(cluster);
            List<NodeId> others = cluster.ids().stream().filter(node -> !node.equals(dead)).toList();
            cluster.faults.partition(List.of(dead), others);
            others.forEach(node -> believe(cluster, node, State.UP));
            believe(cluster, dead, believed);
            coordinator.rounds().reset();

            Duration bound = CONFIG.timeout().multipliedBy(6).dividedBy(10);
            assertThat(CONFIG.timeout()).isEqualTo(Duration.ofSeconds(5));
            assertThat(timed(() -> valueOf(coordinator.get(BUCKET, b("k2")).join()))).satisfies(read -> {
                assertThat(read.value()).isEqualTo("v-k2");
                assertThat(read.took()).as("a get well under the call timeout").isLessThan(bound);
            });
            assertThat(timed(() -> coordinator.range(BUCKET, b(""), 10).join())).satisfies(read -> {
                assertThat(read.value().entries()).extracting(entry -> new String(entry.value(), UTF_8))
                        .containsExactly("v-k1", "v-k2", "v-k3");
                assertThat(read.took()).as("a range well under the call timeout").isLessThan(bound);
            });
            RoundStats rounds = coordinator.rounds();
            assertThat(rounds.rounds("get")).as("one round, no fallback").isEqualTo(1);
            assertThat(rounds.rounds("range")).as("one round, no fallback").isEqualTo(1);
        }
    }

    /**
     * Believed down is not left out: with both other replicas believed DOWN (membership lagging
     * behind, and a itself said DOWN, which a ignores), a's reads still ask one of them and make
     * their quorum.
     */
    @Test
    @Timeout(30)
    void replicasBelievedDownAreStillAsked() throws InterruptedException {
        try (TableCluster cluster = new TableCluster(dir, CONFIG, "a", "b", "c")) {
            ReplicatedTable coordinator = coordinator(cluster);
            coordinator.put(BUCKET, b("k"), b("v")).join();
            cluster.ids().forEach(node -> believe(cluster, node, State.DOWN));

            assertThat(valueOf(coordinator.get(BUCKET, b("k")).join())).isEqualTo("v");
            assertThat(coordinator.range(BUCKET, b(""), 10).join().entries()).hasSize(1);
        }
    }

    private record Timed<T>(T value, Duration took) {}

    private static <T> Timed<T> timed(Supplier<T> read) {
        long start = System.nanoTime();
        T value = read.get();
        return new Timed<>(value, Duration.ofNanos(System.nanoTime() - start));
    }
}
