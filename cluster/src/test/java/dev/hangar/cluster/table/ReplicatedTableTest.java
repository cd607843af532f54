package dev.hangar.cluster.table;

import static dev.hangar.cluster.table.TableCluster.await;
import static dev.hangar.cluster.table.TableCluster.b;
import static dev.hangar.cluster.table.TableCluster.valueOf;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.rpc.RpcPeer;
import dev.hangar.cluster.rpc.RpcRemoteException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplicatedTableTest {
    private static final TableConfig CONFIG =
            new TableConfig("test", 2, 2, Duration.ofSeconds(1), Duration.ofMillis(300));

    @TempDir
    Path dir;

    private TableCluster cluster;

    @BeforeEach
    void startCluster() throws InterruptedException {
        cluster = new TableCluster(dir, CONFIG, "a", "b", "c");
    }

    @AfterEach
    void stopCluster() {
        cluster.close();
    }

    private ReplicatedTable table(String node) {
        return cluster.node(node).table();
    }

    private LocalTable local(String node) {
        return cluster.node(node).local();
    }

    @Test
    void putAndGetFromAnyNodeInOneRoundEach() {
        table("a").put(b("bucket"), b("k1"), b("v1")).join();
        for (String node : List.of("a", "b", "c")) {
            assertThat(valueOf(table(node).get(b("bucket"), b("k1")).join())).isEqualTo("v1");
            assertThat(table(node).rounds().rounds("get")).isEqualTo(table(node).rounds().operations("get"));
        }
        assertThat(table("a").rounds().operations("put")).isEqualTo(1);
        assertThat(table("a").rounds().rounds("put")).isEqualTo(1);
        assertThat(table("b").get(b("bucket"), b("missing")).join()).isEmpty();
    }

    @Test
    void quorumOfTwoServesWithOneNodeDown() throws InterruptedException {
        cluster.node("c").stop();
        table("a").put(b("bucket"), b("k"), b("written while c was down")).join();
        assertThat(valueOf(table("b").get(b("bucket"), b("k")).join())).isEqualTo("written while c was down");

        cluster.node("c").start();
        // c's own replica lacks the write, but the read quorum includes a replica that has it.
        assertThat(valueOf(table("c").get(b("bucket"), b("k")).join())).isEqualTo("written while c was down");
    }

    @Test
    void quorumOfTwoServesWithOneNodePartitionedAway() {
        cluster.faults.partition(List.of(new NodeId("c")), List.of(new NodeId("a"), new NodeId("b")));
        table("a").put(b("bucket"), b("k"), b("v")).join();
        assertThat(valueOf(table("b").get(b("bucket"), b("k")).join())).isEqualTo("v");
    }

    @Test
    void isolatedNodeCannotWriteOrRead() {
        NodeId a = new NodeId("a");
        cluster.faults.partition(List.of(a), List.of(new NodeId("b"), new NodeId("c")));

        assertThatThrownBy(() -> table("a").put(b("bucket"), b("k"), b("lost")).join())
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(QuorumException.class)
                .hasMessageContaining("needs 2 replica(s) but only 0 answered");
        // Without the remote ack its quorum needs, a does not apply the write to its own replica either:
        // nothing is left to spread once the partition heals.
        assertThat(cluster.node("a").local().get(b("bucket"), b("k"))).isEmpty();
        assertThatThrownBy(() -> table("a").get(b("bucket"), b("k")).join())
                .hasCauseInstanceOf(QuorumException.class);

        // The majority side keeps serving.
        table("b").put(b("bucket"), b("k"), b("majority")).join();
        assertThat(valueOf(table("c").get(b("bucket"), b("k")).join())).isEqualTo("majority");
    }

    @Test
    void concurrentPutsOfOneKeyConvergeOnEveryReplica() throws InterruptedException {
        List<CompletableFuture<Entry>> puts = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            for (String node : List.of("a", "b", "c")) {
                puts.add(table(node).put(b("bucket"), b("key-" + i), b(node + "-" + i)));
            }
        }
        CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).join();

        for (int i = 0; i < 20; i++) {
            byte[] key = b("key-" + i);
            Entry expected = null;
            for (int n = 0; n < 3; n++) {
                expected = Entry.winner(expected, puts.get(i * 3 + n).join());
            }
            Entry winner = expected;
            await("every replica holds the winner of key-" + i, () -> cluster.nodes.values().stream()
                    .allMatch(node -> node.local().get(b("bucket"), key).equals(Optional.of(winner))));
        }
    }

    @Test
    void readRepairFixesAStaleReplica() throws InterruptedException {
        cluster.faults.partition(List.of(new NodeId("c")), List.of(new NodeId("a"), new NodeId("b")));
        table("a").put(b("bucket"), b("k"), b("fresh")).join();
        cluster.faults.heal();
        assertThat(local("c").get(b("bucket"), b("k"))).isEmpty();

        assertThat(valueOf(table("c").get(b("bucket"), b("k")).join())).isEqualTo("fresh");
        await("c is repaired", () -> valueOf(local("c").get(b("bucket"), b("k"))).equals("fresh"));
        assertThat(table("c").readRepairs()).isPositive();
    }

    // Reads partition key "bucket" page by page into seen; returns the number of pages.
    private static int readAllPages(ReplicatedTable table, int limit, List<String> seen) {
        byte[] from = new byte[0];
        int pages = 0;
        while (from != null) {
            RangePage page = table.range(b("bucket"), from, limit).join();
            page.entries().forEach(e -> seen.add(new String(e.sortKey(), UTF_8)));
            from = page.nextSortKey();
            pages++;
        }
        return pages;
    }

    @Test
    void rangeMergesReplicasPagesHidesTombstonesAndRepairs() throws InterruptedException {
        cluster.faults.partition(List.of(new NodeId("c")), List.of(new NodeId("a"), new NodeId("b")));
        for (int i = 0; i < 10; i++) {
            table("a").put(b("bucket"), b("k" + i), b("v" + i)).join();
        }
        table("b").delete(b("bucket"), b("k3")).join();
        cluster.faults.heal();

        List<String> seen = new ArrayList<>();
        int pages = readAllPages(table("c"), 4, seen);
        assertThat(seen).containsExactly("k0", "k1", "k2", "k4", "k5", "k6", "k7", "k8", "k9");
        assertThat(pages).isGreaterThanOrEqualTo(3);
        // A bounded range stops before its bound, and is complete there.
        RangePage bounded = table("c").range(b("bucket"), b("k1"), b("k5"), 10).join();
        assertThat(bounded.entries()).extracting(e -> new String(e.sortKey(), UTF_8)).containsExactly("k1", "k2", "k4");
        assertThat(bounded.hasMore()).isFalse();
        await("c is repaired by the listing", () -> local("c").range(b("bucket"), new byte[0], 100).size() == 10);
    }

    @Test
    void rangePagesCountOnlyLiveEntriesAgainstTheLimitUpToTheCap() throws Exception {
        for (int i = 0; i < 30; i++) {
            table("a").put(b("bucket"), b("k%02d".formatted(i)), b("v")).join();
            if (i != 25) {
                table("a").delete(b("bucket"), b("k%02d".formatted(i))).join();
            }
        }
        for (String node : List.of("a", "b", "c")) {
            await(node + " holds every write", () -> local(node).range(b("bucket"), new byte[0], 100).stream()
                    .filter(Entry::isTombstone).count() == 29);
        }

        // Limit 1, cap 10: pages end at k09 and k19 (the cap), at k25 (the live entry), and at the end.
        List<String> seen = new ArrayList<>();
        int pages = readAllPages(table("c"), 1, seen);
        assertThat(QuorumRead.pageCap(1)).isEqualTo(10);
        assertThat(seen).containsExactly("k25");
        assertThat(pages).isEqualTo(4);

        // Coordinators of earlier releases ask "range": limit entries in all, tombstones included.
        NodeId b = new NodeId("b");
        byte[] reply = cluster.node("a").client.call(new RpcPeer(b, cluster.addresses.get(b)), "table.test.range",
                Wire.rangeRequest(b("bucket"), new byte[0], null, 5), Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS);
        assertThat(Wire.entries(reply)).extracting(e -> new String(e.sortKey(), UTF_8))
                .containsExactly("k00", "k01", "k02", "k03", "k04");
    }

    @Test
    void antiEntropyRestoresWritesANodeMissedWhileDown() throws InterruptedException {
        cluster.node("c").stop();
        for (int i = 0; i < 100; i++) {
            table(i % 2 == 0 ? "a" : "b").put(b("bucket-" + (i % 7)), b("key-" + i), b("value-" + i)).join();
        }
        table("a").delete(b("bucket-0"), b("key-0")).join();
        cluster.node("c").start();
        assertThat(local("c").get(b("bucket-1"), b("key-1"))).isEmpty();

        SyncStats stats = cluster.node("c").antiEntropy().syncWith(new NodeId("a")).join();
        assertThat(stats.failures()).isZero();
        assertThat(stats.entriesReceived()).isEqualTo(100);

        for (int i = 0; i < 100; i++) {
            byte[] pk = b("bucket-" + (i % 7));
            byte[] sk = b("key-" + i);
            assertThat(local("c").get(pk, sk)).isEqualTo(local("a").get(pk, sk)).isPresent();
        }
        assertThat(local("c").get(b("bucket-0"), b("key-0")).orElseThrow().isTombstone()).isTrue();
        assertThat(cluster.node("c").antiEntropy().syncWith(new NodeId("a")).join().partitionsDiffering()).isZero();
        // Every partition is replicated on all three nodes: runOnce compares each with both peers.
        SyncStats all = cluster.node("c").antiEntropy().runOnce().join();
        assertThat(all.partitionsCompared()).isEqualTo(2 * cluster.layout.partitions());
        assertThat(all.partitionsDiffering()).isZero();
    }

    @Test
    void antiEntropyPushesTheCallersEntriesToo() {
        cluster.faults.partition(List.of(new NodeId("c")), List.of(new NodeId("a"), new NodeId("b")));
        Entry onlyOnA = Entry.of(b("p"), b("s"), b("v"), table("a").clock().now());
        local("a").merge(onlyOnA);
        cluster.faults.heal();
        SyncStats stats = cluster.node("a").antiEntropy().syncWith(new NodeId("c")).join();
        assertThat(stats.entriesSent()).isEqualTo(1);
        assertThat(local("c").get(b("p"), b("s"))).contains(onlyOnA);
    }

    @Test
    void tombstoneWinsOverOlderValueAndIsPurgedAfterTheGcDelay() throws InterruptedException {
        table("a").put(b("bucket"), b("k"), b("v")).join();
        table("b").delete(b("bucket"), b("k")).join();
        assertThat(table("c").get(b("bucket"), b("k")).join()).isEmpty();
        await("every replica holds the tombstone", () -> cluster.nodes.values().stream()
                .allMatch(n -> n.local().get(b("bucket"), b("k")).map(Entry::isTombstone).orElse(false)));

        assertThat(table("a").purgeTombstones()).isZero();
        Thread.sleep(CONFIG.tombstoneGcDelay().toMillis() + 50);
        for (TableCluster.Node node : cluster.nodes.values()) {
            assertThat(node.table().purgeTombstones()).isEqualTo(1);
            assertThat(node.local().get(b("bucket"), b("k"))).isEmpty();
        }
    }

    /**
     * A peer that sends an entry stamped far in the future (a clock set years ahead, or a forged
     * Long.MAX_VALUE) gets an error; the receiving node neither stores the entry nor moves its clock,
     * and writes through it keep working.
     */
    @Test
    void refusesEntriesFromTheFarFutureAndKeepsWriting() throws Exception {
        NodeId b = new NodeId("b");
        RpcPeer toB = new RpcPeer(b, cluster.addresses.get(b));
        long now = System.currentTimeMillis();
        Entry[] forged = {
            Entry.of(b("bucket"), b("k"), b("from the future"), new Timestamp(Long.MAX_VALUE, 0, new NodeId("a"))),
            Entry.of(b("bucket"), b("k"), b("an hour ahead"), new Timestamp(now + 3_600_000, 0, new NodeId("a")))};
        for (Entry entry : forged) {
            for (String method : List.of("merge", "swap")) {
                byte[] payload = method.equals("swap") ? Wire.swapRequest(entry, List.of()) : Wire.entries(List.of(entry));
                CompletableFuture<byte[]> call = cluster.node("a").client.call(toB, "table.test." + method,
                        payload, Duration.ofSeconds(5));
                assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .cause().isInstanceOf(RpcRemoteException.class)
                        .hasMessageContaining("FutureTimestampException");
            }
        }
        assertThat(local("b").get(b("bucket"), b("k"))).isEmpty();
        assertThat(table("b").clock().last().wall()).isLessThan(System.currentTimeMillis() + 60_000);

        table("b").put(b("bucket"), b("k"), b("written after")).join();
        assertThat(valueOf(table("c").get(b("bucket"), b("k")).join())).isEqualTo("written after");
    }

    /**
     * A replica that holds a far-future entry (stored before the bound existed) counts as a failed
     * answer: reads take the other replicas, anti-entropy does not spread it, and the clocks of the
     * nodes that meet it stay put.
     */
    @Test
    void aReplicaHoldingAFarFutureEntryDoesNotSpreadIt() throws InterruptedException {
        table("a").put(b("bucket"), b("k"), b("good")).join();
        await("every replica has the write", () -> valueOf(local("c").get(b("bucket"), b("k"))).equals("good"));
        local("c").merge(Entry.of(b("bucket"), b("k"), b("bad"), new Timestamp(Long.MAX_VALUE, 0, new NodeId("c"))));

        for (String node : List.of("a", "b")) {
            // Reads ask closest first; whether c's answer is among those taken or fails, "good" wins.
            assertThat(valueOf(table(node).get(b("bucket"), b("k")).join())).isEqualTo("good");
            assertThat(table(node).clock().last().wall()).isLessThan(System.currentTimeMillis() + 60_000);
        }
        SyncStats stats = cluster.node("a").antiEntropy().syncWith(new NodeId("c")).join();
        assertThat(stats.failures()).isPositive();
        assertThat(valueOf(local("a").get(b("bucket"), b("k")))).isEqualTo("good");
        assertThat(valueOf(local("b").get(b("bucket"), b("k")))).isEqualTo("good");
    }
}
