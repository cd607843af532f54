package dev.hangar.cluster.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.BlockStores;
import dev.hangar.blockstore.NoSuchBlockException;
import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.blockstore.memory.InMemoryBlockStore;
import dev.hangar.blockstore.packed.PackingOptions;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.Partitioning;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.membership.ReplicaOrder;
import dev.hangar.cluster.replication.TestCluster.Node;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ReplicatedBlockStoreTest {
    private final TestCluster cluster = new TestCluster();
    private final Random random = new Random(42);

    @TempDir
    Path dir;

    @AfterEach
    void stop() throws Exception {
        cluster.close();
    }

    private BlockStore packed(String name) throws IOException {
        return BlockStores.packed(dir.resolve(name), SyncPolicy.NONE, false, PackingOptions.DEFAULTS);
    }

    /** Three storage nodes in three zones, each with a packed store on disk (or in memory), rf 3. */
    private List<Node> threeNodes(boolean inMemory) throws Exception {
        List<Node> nodes = new ArrayList<>();
        for (String name : List.of("a", "b", "c")) {
            nodes.add(cluster.start(name, "zone-" + name, 100, inMemory ? BlockStores.inMemory() : packed(name)));
        }
        cluster.plan(nodes.toArray(Node[]::new));
        return nodes;
    }

    private byte[] bytes(int size) {
        byte[] data = new byte[size];
        random.nextBytes(data);
        return data;
    }

    private static BlockRef write(Node via, BlockId id, byte[] data) throws IOException {
        return via.store.write(id, new ByteArrayInputStream(data));
    }

    private static byte[] readAll(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }

    private static boolean holds(Node node, BlockId id) {
        try {
            return node.local().exists(id);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Polls until {@code condition} holds: a write returns at quorum, before its last copy lands. */
    private static void eventually(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition not met in time").isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    @Test
    void writesThroughAnyNodeReadBackFromEveryNode() throws Exception {
        List<Node> nodes = threeNodes(false);
        Map<BlockRef, byte[]> written = new LinkedHashMap<>();
        for (Node via : nodes) {
            for (int i = 0; i < 3; i++) {
                byte[] data = bytes(1 + random.nextInt(100_000));
                written.put(write(via, BlockId.random(), data), data);
            }
        }
        // rf 3 on three nodes: every node ends up with every block. A write returns at the quorum
        // of 2, so the third copy may still be on its way: wait for it before reading, or a read
        // could go to another node and the local-reads assertion below would race.
        for (BlockRef ref : written.keySet()) {
            eventually(() -> nodes.stream().allMatch(node -> holds(node, ref.id())));
        }
        for (Node reader : nodes) {
            for (Map.Entry<BlockRef, byte[]> block : written.entrySet()) {
                BlockRef ref = block.getKey();
                byte[] data = block.getValue();
                assertThat(readAll(reader.store.read(ref, 0, ref.size()))).isEqualTo(data);
                int offset = data.length / 3;
                assertThat(readAll(reader.store.read(ref.id(), offset, data.length - offset)))
                        .isEqualTo(java.util.Arrays.copyOfRange(data, offset, data.length));
                assertThat(reader.store.exists(ref.id())).isTrue();
            }
        }
        ReplicationStats stats = nodes.getFirst().store.stats();
        assertThat(stats.writes()).isEqualTo(3);
        assertThat(stats.writeRounds()).isEqualTo(3);
        assertThat(stats.readRounds()).as("every read served by the local copy").isZero();
        assertThat(stats.resyncQueued()).isZero();
        assertThat(nodes.getFirst().store.exists(BlockId.random())).isFalse();
        assertThatThrownBy(() -> nodes.get(1).store.read(BlockId.random(), 0, 1))
                .isInstanceOf(NoSuchBlockException.class);
    }

    @Test
    void aCutNodeMissesWritesThatResyncRestoresWhenItReturns() throws Exception {
        List<Node> nodes = threeNodes(true);
        Node a = nodes.get(0), b = nodes.get(1), c = nodes.get(2);
        cluster.faults.partition(List.of(c.id), List.of(a.id, b.id));

        byte[] data = bytes(50_000);
        BlockRef ref = write(a, BlockId.random(), data);
        assertThat(readAll(b.store.read(ref, 0, ref.size()))).isEqualTo(data);
        eventually(() -> a.store.resyncQueue().pending().contains(ResyncQueue.Copy.of(ref, c.id)));
        assertThat(holds(c, ref.id())).isFalse();

        cluster.faults.heal();
        ResyncQueue.Report report = a.store.resyncQueue().runOnce();
        assertThat(report.copied()).isEqualTo(1);
        assertThat(report.remaining()).isZero();
        // Read from c's own store, not through the cluster.
        assertThat(readAll(c.local().read(ref, 0, ref.size()))).isEqualTo(data);
    }

    @Test
    void aStoppedNodeMissesWritesThatResyncRestoresAfterRestart() throws Exception {
        List<Node> nodes = threeNodes(false);
        Node a = nodes.get(0), b = nodes.get(1), c = nodes.get(2);
        cluster.stop(c);

        byte[] data = bytes(10_000);
        BlockRef ref = write(b, BlockId.random(), data);
        assertThat(readAll(a.store.read(ref, 0, ref.size()))).isEqualTo(data);
        eventually(() -> b.store.resyncQueue().pending().size() == 1);
        assertThat(b.store.resyncQueue().runOnce().failed()).as("still down").isEqualTo(1);

        // A delete while c is down reaches it through the queue too.
        BlockRef doomed = write(b, BlockId.random(), bytes(100));
        eventually(() -> b.store.resyncQueue().pending().size() == 2);
        cluster.restart(c);
        assertThat(b.store.resyncQueue().runOnce().copied()).isEqualTo(2);
        assertThat(readAll(c.local().read(ref, 0, ref.size()))).isEqualTo(data);
        assertThat(holds(c, doomed.id())).isTrue();

        cluster.stop(c);
        b.store.delete(doomed.id());
        assertThat(holds(a, doomed.id())).isFalse();
        assertThat(b.store.resyncQueue().pending()).containsExactly(new ResyncQueue.Delete(doomed.id(), c.id));
        cluster.restart(c);
        assertThat(b.store.resyncQueue().runOnce().deleted()).isEqualTo(1);
        assertThat(holds(c, doomed.id())).isFalse();
    }

    @Test
    void theBackgroundWorkerRepairsAReturningNodeByItself() throws Exception {
        ReplicationConfig config = new ReplicationConfig(2, Duration.ofMillis(500), Duration.ofMillis(500),
                ReplicationConfig.DEFAULT_MAX_BLOCK_BYTES, Duration.ofMillis(50));
        Node a = cluster.start("a", "zone-a", 100, BlockStores.inMemory(), config);
        Node b = cluster.start("b", "zone-b", 100, BlockStores.inMemory(), config);
        Node c = cluster.start("c", "zone-c", 100, BlockStores.inMemory(), config);
        cluster.plan(a, b, c);
        cluster.stop(c);
        BlockRef ref = write(a, BlockId.random(), bytes(500));
        eventually(() -> a.store.stats().resyncQueued() == 1);
        cluster.restart(c);
        eventually(() -> holds(c, ref.id()));
        eventually(() -> a.store.resyncQueue().pending().isEmpty());
    }

    @Test
    void aWriteFromTheMinoritySideOfAPartitionFailsAndLeavesNoCopy() throws Exception {
        List<Node> nodes = threeNodes(true);
        Node a = nodes.get(0), b = nodes.get(1), c = nodes.get(2);
        cluster.faults.partition(List.of(a.id), List.of(b.id, c.id));

        BlockId id = BlockId.random();
        assertThatThrownBy(() -> write(a, id, bytes(1000)))
                .isInstanceOfSatisfying(QuorumNotReachedException.class, e -> {
                    assertThat(e.acknowledged()).isEqualTo(1);
                    assertThat(e.needed()).isEqualTo(2);
                    assertThat(e).hasMessageContaining("1 of 3 replicas acknowledged");
                });
        assertThat(holds(a, id)).as("the local copy of a failed write is removed").isFalse();
        assertThat(a.store.resyncQueue().pending()).as("a failed write is not repaired").isEmpty();

        // The majority side keeps serving.
        byte[] data = bytes(1000);
        BlockRef ref = write(b, BlockId.random(), data);
        assertThat(readAll(c.store.read(ref, 0, ref.size()))).isEqualTo(data);
    }

    @Test
    void aCorruptLocalCopyMakesAVerifiedReadFallBackToAnotherReplica() throws Exception {
        List<Node> nodes = threeNodes(true);
        Node a = nodes.get(0);
        byte[] data = bytes(4096);
        BlockRef ref = write(a, BlockId.random(), data);
        // The write returns at the quorum of 2: with the third copy still on its way, the fallback could
        // ask a replica that has none yet and take a second round.
        eventually(() -> nodes.stream().allMatch(node -> holds(node, ref.id())));
        ((InMemoryBlockStore) a.local()).corrupt(ref.id(), 100);

        ReplicationStats before = a.store.stats();
        assertThat(readAll(a.store.read(ref, 10, 200))).isEqualTo(java.util.Arrays.copyOfRange(data, 10, 210));
        ReplicationStats after = a.store.stats();
        assertThat(after.readFallbacks() - before.readFallbacks()).isEqualTo(1);
        assertThat(after.readRounds() - before.readRounds()).isEqualTo(1);
    }

    @Test
    void aGatewayWithoutStorageWritesReadsAndDeletes() throws Exception {
        List<Node> storage = threeNodes(true);
        Node gateway = cluster.start("g", "zone-a", 0, null);
        ClusterLayout layout = cluster.plan(storage.get(0), storage.get(1), storage.get(2), gateway);
        assertThat(layout.partitionCounts()).doesNotContainKey(gateway.id);

        byte[] data = bytes(30_000);
        BlockRef ref = write(gateway, BlockId.random(), data);
        // The closest replica may be the one whose copy is still on its way (quorum 2 of 3): a read
        // then takes a second round. Wait for all three copies before counting rounds.
        eventually(() -> storage.stream().allMatch(node -> holds(node, ref.id())));
        assertThat(readAll(gateway.store.read(ref, 0, ref.size()))).isEqualTo(data);
        assertThat(gateway.store.exists(ref.id())).isTrue();
        ReplicationStats stats = gateway.store.stats();
        assertThat(stats.writeRounds()).isEqualTo(1);
        assertThat(stats.readRounds()).isEqualTo(1);
        assertThat(gateway.client.calls().count("blocks.put")).isEqualTo(3);
        // Closest first: the storage node in the gateway's own zone serves its reads.
        assertThat(ReplicaOrder.readOrder(layout, gateway.id, gateway.store.replicasOf(ref.id()), Map.of()).getFirst())
                .isEqualTo(storage.get(0).id);

        eventually(() -> storage.stream().allMatch(node -> holds(node, ref.id())));
        gateway.store.delete(ref.id());
        assertThat(storage).noneMatch(node -> holds(node, ref.id()));
        assertThat(gateway.store.exists(ref.id())).isFalse();
    }

    /**
     * A killed host: its replica is silent, not refusing, so asking it first costs the whole read
     * timeout (5 s here, as by default). Once membership no longer believes it up, the gateway in its
     * zone — which would ask it first — asks the others first and never waits for it.
     */
    @ParameterizedTest
    @EnumSource(value = PeerStatus.State.class, names = {"SUSPECT", "DOWN"})
    @Timeout(60)
    void aReadAsksReplicasBelievedUpBeforeASilentOneItWouldHaveAskedFirst(PeerStatus.State silentState)
            throws Exception {
        List<Node> storage = threeNodes(true);
        Node a = storage.get(0), b = storage.get(1), c = storage.get(2);
        ReplicationConfig defaultReadTimeout = new ReplicationConfig(2, Duration.ofMillis(500),
                ReplicationConfig.defaults().readTimeout(), ReplicationConfig.DEFAULT_MAX_BLOCK_BYTES, Duration.ZERO);
        Node gateway = cluster.start("g", "zone-c", 0, null, defaultReadTimeout);
        ClusterLayout layout = cluster.plan(a, b, c, gateway);
        byte[] data = bytes(40_000);
        BlockRef ref = write(gateway, BlockId.random(), data);
        eventually(() -> storage.stream().allMatch(node -> holds(node, ref.id())));
        assertThat(ReplicaOrder.readOrder(layout, gateway.id, gateway.store.replicasOf(ref.id()), Map.of()).getFirst())
                .as("without membership, the gateway asks its zone's replica first").isEqualTo(c.id);

        cluster.faults.partition(List.of(c.id), List.of(a.id, b.id, gateway.id));
        cluster.believe(a, PeerStatus.State.UP);
        cluster.believe(b, PeerStatus.State.UP);
        cluster.believe(c, silentState);
        ReplicationStats before = gateway.store.stats();
        long start = System.nanoTime();
        assertThat(readAll(gateway.store.read(ref, 0, ref.size()))).isEqualTo(data);
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(took).as("well under the 5 s read timeout, even on a loaded machine")
                .isLessThan(Duration.ofSeconds(4));
        ReplicationStats after = gateway.store.stats();
        assertThat(after.readRounds() - before.readRounds()).as("one replica asked").isEqualTo(1);
        assertThat(after.readFallbacks() - before.readFallbacks()).isZero();
    }

    /** Membership may be wrong, or late: a replica believed down still serves the copy no other has. */
    @Test
    void aReplicaBelievedDownIsStillAskedWhenTheOthersHaveNoCopy() throws Exception {
        List<Node> storage = threeNodes(true);
        Node a = storage.get(0), b = storage.get(1), c = storage.get(2);
        Node gateway = cluster.start("g", "zone-c", 0, null);
        cluster.plan(a, b, c, gateway);
        byte[] data = bytes(20_000);
        BlockRef ref = write(gateway, BlockId.random(), data);
        eventually(() -> storage.stream().allMatch(node -> holds(node, ref.id())));
        a.local().delete(ref.id());
        b.local().delete(ref.id());
        cluster.believe(a, PeerStatus.State.UP);
        cluster.believe(b, PeerStatus.State.UP);
        cluster.believe(c, PeerStatus.State.DOWN);

        ReplicationStats before = gateway.store.stats();
        assertThat(readAll(gateway.store.read(ref, 0, ref.size()))).isEqualTo(data);
        ReplicationStats after = gateway.store.stats();
        assertThat(after.readRounds() - before.readRounds()).as("a and b, then c").isEqualTo(3);
        assertThat(after.readFallbacks() - before.readFallbacks()).isEqualTo(2);
    }

    @Test
    void aNewNodeReceivesItsPartitionsAndOldCopiesGoOnlyOnceConfirmed() throws Exception {
        List<Node> old = threeNodes(false);
        Node d = cluster.start("d", "zone-d", 100, packed("d"));
        ClusterLayout before = cluster.layout.get();
        Map<BlockRef, byte[]> written = new LinkedHashMap<>();
        for (int i = 0; i < 12; i++) {
            byte[] data = bytes(2000);
            written.put(write(old.get(i % 3), BlockId.random(), data), data);
        }
        for (BlockRef ref : written.keySet()) {
            eventually(() -> old.stream().allMatch(node -> holds(node, ref.id())));
        }

        ClusterLayout after = cluster.plan(old.get(0), old.get(1), old.get(2), d);
        cluster.stop(d);
        int queued = 0;
        for (Node node : old) {
            queued += node.store.resyncQueue().rebalance(before, after);
            ResyncQueue.Report report = node.store.resyncQueue().runOnce();
            assertThat(report.released()).isZero();
        }
        assertThat(queued).as("some blocks belong to d now").isPositive();
        for (BlockRef ref : written.keySet()) {
            assertThat(old).as("no copy goes before d confirms").allMatch(node -> holds(node, ref.id()));
        }

        cluster.restart(d);
        for (Node node : old) {
            node.store.resyncQueue().runOnce();
        }
        List<Node> all = List.of(old.get(0), old.get(1), old.get(2), d);
        int onD = 0;
        for (Map.Entry<BlockRef, byte[]> block : written.entrySet()) {
            BlockRef ref = block.getKey();
            Set<NodeId> holders = new HashSet<>();
            for (Node node : all) {
                if (holds(node, ref.id())) {
                    holders.add(node.id);
                }
            }
            assertThat(holders).isEqualTo(Set.copyOf(d.store.replicasOf(ref.id())));
            onD += holders.contains(d.id) ? 1 : 0;
            for (Node reader : all) {
                assertThat(readAll(reader.store.read(ref, 0, ref.size()))).isEqualTo(block.getValue());
            }
        }
        assertThat(onD).isPositive();
        for (Node node : old) {
            assertThat(node.store.resyncQueue().pending()).isEmpty();
            assertThat(node.store.resyncQueue().pendingReleases()).isEmpty();
        }
    }

    @Test
    void aBlockWrittenUnderTheOldLayoutAfterTheRebalanceStillReachesItsNewOwners() throws Exception {
        List<Node> old = threeNodes(true);
        ClusterLayout before = cluster.layout.get();
        // A coordinator that has not heard of the new layout yet writes to the old replicas.
        Node lagging = cluster.start("lagging", "zone-a", 0, null, () -> before);
        Node d = cluster.start("d", "zone-d", 100, BlockStores.inMemory());
        ClusterLayout after = cluster.plan(old.get(0), old.get(1), old.get(2), d);
        for (Node node : cluster.nodes()) {
            assertThat(node.store.resyncQueue().rebalance(before, after)).as("nothing is stored yet").isZero();
        }
        Partitioning partitioning = Partitioning.of(after);
        BlockId id;
        do {
            id = BlockId.random();
        } while (!after.replicas(partitioning.partitionOfBlock(id.value())).contains(d.id));
        BlockId moved = id;
        byte[] data = bytes(5000);

        BlockRef ref = write(lagging, moved, data);

        // A copy is stored, then passed to the resync queue: wait for both, or a pass below may run before the
        // queue has the block and leave it where it landed.
        eventually(() -> old.stream().allMatch(node -> holds(node, moved) && !node.store.resyncQueue().pending().isEmpty()));
        assertThat(holds(d, moved)).as("the lagging coordinator wrote to the old replicas").isFalse();
        for (Node node : old) {
            node.store.resyncQueue().runOnce();
        }
        assertThat(holds(d, moved)).as("the old replicas passed their copy on to the new owner").isTrue();
        Set<NodeId> owners = Set.copyOf(after.replicas(partitioning.partitionOfBlock(moved.value())));
        for (Node node : List.of(old.get(0), old.get(1), old.get(2), d)) {
            assertThat(holds(node, moved)).as("%s holds the block exactly when it owns it", node.id)
                    .isEqualTo(owners.contains(node.id));
            assertThat(node.store.resyncQueue().pending()).isEmpty();
            assertThat(node.store.resyncQueue().pendingReleases()).isEmpty();
        }
        assertThat(readAll(d.local().read(ref, 0, ref.size()))).isEqualTo(data);
    }

    /** Three storage nodes on disk whose resync queues are kept on disk too, as a real node's are. */
    private List<Node> threeDurableNodes() throws Exception {
        List<Node> nodes = new ArrayList<>();
        for (String name : List.of("a", "b", "c")) {
            nodes.add(cluster.start(name, "zone-" + name, 100, packed(name), TestCluster.CONFIG,
                    dir.resolve(name + "-resync")));
        }
        cluster.plan(nodes.toArray(Node[]::new));
        return nodes;
    }

    @Test
    void queuedCopiesSurviveARestartOfTheCoordinator() throws Exception {
        List<Node> nodes = threeDurableNodes();
        Node b = nodes.get(1), c = nodes.get(2);
        cluster.stop(c);
        Map<BlockRef, byte[]> written = new LinkedHashMap<>();
        for (int i = 0; i < 5; i++) {
            byte[] data = bytes(1 + random.nextInt(20_000));
            written.put(write(b, BlockId.random(), data), data);
        }
        eventually(() -> b.store.resyncQueue().pending().size() == written.size());
        List<ResyncQueue.Task> queued = b.store.resyncQueue().pending();

        cluster.reopen(b);
        assertThat(b.store.resyncQueue().pending()).containsExactlyInAnyOrderElementsOf(queued);
        cluster.restart(c);
        ResyncQueue.Report report = b.store.resyncQueue().runOnce();
        assertThat(report.copied()).isEqualTo(written.size());
        assertThat(report.remaining()).isZero();
        for (Map.Entry<BlockRef, byte[]> block : written.entrySet()) {
            BlockRef ref = block.getKey();
            assertThat(readAll(c.local().read(ref, 0, ref.size()))).isEqualTo(block.getValue());
        }

        cluster.reopen(b);
        assertThat(b.store.resyncQueue().pending()).as("completed copies leave the store").isEmpty();
    }

    @Test
    void aQueuedDeleteSurvivesARestartOfTheCoordinator() throws Exception {
        List<Node> nodes = threeDurableNodes();
        Node b = nodes.get(1), c = nodes.get(2);
        BlockRef doomed = write(b, BlockId.random(), bytes(3000));
        eventually(() -> nodes.stream().allMatch(node -> holds(node, doomed.id())));
        cluster.stop(c);
        b.store.delete(doomed.id());

        cluster.reopen(b);
        assertThat(b.store.resyncQueue().pending()).containsExactly(new ResyncQueue.Delete(doomed.id(), c.id));
        cluster.restart(c);
        assertThat(holds(c, doomed.id())).isTrue();
        assertThat(b.store.resyncQueue().runOnce().deleted()).isEqualTo(1);
        assertThat(holds(c, doomed.id())).isFalse();

        cluster.reopen(b);
        assertThat(b.store.resyncQueue().pending()).isEmpty();
    }

    @Test
    void aRebalanceSurvivesARestartOfTheNodesThatHandOff() throws Exception {
        List<Node> old = threeDurableNodes();
        Node d = cluster.start("d", "zone-d", 100, packed("d"), TestCluster.CONFIG, dir.resolve("d-resync"));
        ClusterLayout before = cluster.layout.get();
        List<BlockRef> written = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            written.add(write(old.get(i % 3), BlockId.random(), bytes(500)));
        }
        for (BlockRef ref : written) {
            eventually(() -> old.stream().allMatch(node -> holds(node, ref.id())));
        }
        ClusterLayout after = cluster.plan(old.get(0), old.get(1), old.get(2), d);
        cluster.stop(d);
        int releases = 0;
        for (Node node : old) {
            node.store.resyncQueue().rebalance(before, after);
            List<ResyncQueue.Task> tasks = node.store.resyncQueue().pending();
            Set<BlockId> handoffs = node.store.resyncQueue().pendingReleases();
            releases += handoffs.size();
            cluster.reopen(node);
            assertThat(node.store.resyncQueue().pending()).containsExactlyInAnyOrderElementsOf(tasks);
            assertThat(node.store.resyncQueue().pendingReleases()).isEqualTo(handoffs);
        }
        assertThat(releases).as("some copies move to d").isPositive();

        cluster.restart(d);
        for (Node node : old) {
            node.store.resyncQueue().runOnce();
        }
        for (BlockRef ref : written) {
            for (Node node : List.of(old.get(0), old.get(1), old.get(2), d)) {
                assertThat(holds(node, ref.id())).isEqualTo(d.store.replicasOf(ref.id()).contains(node.id));
            }
        }
        for (Node node : old) {
            cluster.reopen(node);
            assertThat(node.store.resyncQueue().pending()).isEmpty();
            assertThat(node.store.resyncQueue().pendingReleases()).isEmpty();
        }
    }

    @Test
    void aWriteUnderInjectedDelayCostsOneRound() throws Exception {
        List<Node> nodes = threeNodes(true);
        Node a = nodes.get(0);
        write(a, BlockId.random(), bytes(100)); // opens the connections
        for (int i = 0; i < nodes.size(); i++) {
            for (int j = i + 1; j < nodes.size(); j++) {
                cluster.faults.delayBetween(nodes.get(i).id, nodes.get(j).id, Duration.ofMillis(50), Duration.ZERO);
            }
        }
        ReplicationStats before = a.store.stats();
        long puts = a.client.calls().count("blocks.put");

        long start = System.nanoTime();
        write(a, BlockId.random(), bytes(16));
        long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();

        // 50 ms each way: the write waited for a round trip (100 ms). That the calls ran in one
        // parallel round, not two in sequence, the round counter says; a wall-clock upper bound
        // would fail on a loaded machine.
        assertThat(millis).isGreaterThanOrEqualTo(100);
        assertThat(a.store.stats().writeRounds() - before.writeRounds()).isEqualTo(1);
        assertThat(a.client.calls().count("blocks.put") - puts).isEqualTo(2);
    }

    @Test
    void aBlockLargerThanOneMessageIsRefused() throws Exception {
        Node a = threeNodes(true).getFirst();
        byte[] tooBig = new byte[ReplicationConfig.DEFAULT_MAX_BLOCK_BYTES + 1];
        BlockId id = BlockId.random();
        assertThatThrownBy(() -> write(a, id, tooBig)).isInstanceOf(IOException.class).hasMessageContaining("larger");
        assertThat(holds(a, id)).isFalse();
    }
}
