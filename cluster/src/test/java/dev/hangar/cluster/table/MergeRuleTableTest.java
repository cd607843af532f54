package dev.hangar.cluster.table;

import static dev.hangar.cluster.table.TableCluster.await;
import static dev.hangar.cluster.table.TableCluster.b;
import static dev.hangar.cluster.table.TableCluster.valueOf;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.RoundTrips;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.rpc.NetworkFaults;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table with a merge rule of its own applies it wherever entries meet: local merges, swaps, the
 * answers of gets and ranges, read repair and anti-entropy. And the multi-entry write and the swap
 * that peeks, which the metadata store builds on.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MergeRuleTableTest {
    /** The greater value wins whatever its timestamp; a value beats a tombstone; equal values by timestamp. */
    static final MergeRule GREATEST_VALUE = (first, second) -> {
        if (first.isTombstone() || second.isTombstone()) {
            int byLiveness = Boolean.compare(!first.isTombstone(), !second.isTombstone());
            return byLiveness != 0 ? byLiveness : first.timestamp().compareTo(second.timestamp());
        }
        int byValue = Arrays.compareUnsigned(first.value(), second.value());
        return byValue != 0 ? byValue : first.timestamp().compareTo(second.timestamp());
    };
    private static final TableConfig CONFIG =
            new TableConfig("ruled", 2, 2, Duration.ofSeconds(1), Duration.ofDays(1)).withMergeRule(GREATEST_VALUE);

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
    void aLaterWriteThatTheRuleRanksLowerLosesOnEveryReplica() throws InterruptedException {
        table("a").put(b("p"), b("k"), b("z")).join();
        table("b").put(b("p"), b("k"), b("a")).join();
        table("c").delete(b("p"), b("k")).join();

        for (String node : List.of("a", "b", "c")) {
            assertThat(valueOf(table(node).get(b("p"), b("k")).join())).isEqualTo("z");
            await("replica " + node + " holds z", () -> valueOf(local(node).get(b("p"), b("k"))).equals("z"));
        }
    }

    @Test
    void readsMergeByTheRuleAndRepairWithItsWinner() throws InterruptedException {
        // Newest by the clock on b, greatest by the rule on a; c is down, so every read quorum is a and b.
        cluster.node("c").stop();
        local("a").merge(Entry.of(b("p"), b("k"), b("z"), new Timestamp(1, 0, new NodeId("a"))));
        local("b").merge(Entry.of(b("p"), b("k"), b("a"), table("b").clock().now()));
        local("a").merge(Entry.of(b("p"), b("r"), b("z"), new Timestamp(1, 0, new NodeId("a"))));
        local("b").merge(Entry.of(b("p"), b("r"), b("a"), table("b").clock().now()));

        assertThat(valueOf(table("a").get(b("p"), b("k")).join())).isEqualTo("z");
        assertThat(valueOf(table("b").get(b("p"), b("k")).join())).isEqualTo("z");
        await("b is repaired with the rule's winner", () -> valueOf(local("b").get(b("p"), b("k"))).equals("z"));
        assertThat(table("b").range(b("p"), b("r"), 10).join().entries())
                .extracting(entry -> new String(entry.value(), UTF_8)).first().isEqualTo("z");
        await("b's range is repaired", () -> valueOf(local("b").get(b("p"), b("r"))).equals("z"));
    }

    @Test
    void antiEntropyKeepsTheRulesWinnerOnBothSides() {
        local("a").merge(Entry.of(b("p"), b("k"), b("z"), new Timestamp(1, 0, new NodeId("a"))));
        local("c").merge(Entry.of(b("p"), b("k"), b("a"), table("c").clock().now()));

        assertThat(cluster.node("a").antiEntropy().syncWith(new NodeId("c")).join().failures()).isZero();

        assertThat(valueOf(local("a").get(b("p"), b("k")))).isEqualTo("z");
        assertThat(valueOf(local("c").get(b("p"), b("k")))).isEqualTo("z");
    }

    @Test
    void aSwapLearnsWhatWasThereEvenWhenItWinsAndPeeksAtOtherKeys() {
        table("a").put(b("p"), b("k"), b("z")).join();
        table("a").put(b("p"), b("other"), b("peeked")).join();

        ReplicatedTable.Swapped swapped = table("b")
                .swap(Entry.of(b("p"), b("k"), b("a"), table("b").clock().now()), List.of(b("other"), b("none")))
                .join();

        assertThat(valueOf(swapped.previous())).isEqualTo("z");
        assertThat(swapped.peeked()).hasSize(2);
        assertThat(valueOf(swapped.peeked().get(0))).isEqualTo("peeked");
        assertThat(swapped.peeked().get(1)).isEmpty();
        assertThat(valueOf(table("c").get(b("p"), b("k")).join())).isEqualTo("z");
    }

    /**
     * b meets the swap at once, and a read through b repairs c with it before c's own copy of the swap
     * arrives: c then answers the entry itself, which tells nothing of what it replaced and, as the
     * rule's winner, would hide the answer of a, whose own swap waits for c's ack. a's copy, read before
     * the entry left it, still says what was there.
     */
    @Test
    void aSwapLearnsWhatWasThereWhenReadRepairCarriedTheEntryAheadOfIt() throws InterruptedException {
        table("a").put(b("p"), b("k"), b("a")).join();
        awaitEveryReplicaHolds("a");
        assertThat(valueOf(swapOvertakenByRepair().previous())).isEqualTo("a");
    }

    /**
     * As above, through a coordinator whose own copy missed the previous write: of the quorum's answers
     * only a's, which knows nothing of that write, comes from before the entry, so the swap waits for b,
     * whose answer was already on its way.
     */
    @Test
    void aSwapWaitsForAnotherReplicaWhenTooFewAnsweredFromBeforeTheEntry() throws InterruptedException {
        cluster.faults.partition(List.of(new NodeId("a")), List.of(new NodeId("b"), new NodeId("c")));
        table("b").put(b("p"), b("k"), b("a")).join();
        cluster.faults.heal();
        await("c holds the previous write", () -> valueOf(local("c").get(b("p"), b("k"))).equals("a"));
        assertThat(local("a").get(b("p"), b("k"))).isEmpty();
        assertThat(valueOf(swapOvertakenByRepair().previous())).isEqualTo("a");
    }

    /** When the replica it would wait for is down, the swap still succeeds; what it replaced is then unknown. */
    @Test
    void aSwapThatCannotLearnWhatItReplacedStillWrites() throws InterruptedException {
        cluster.faults.partition(List.of(new NodeId("a")), List.of(new NodeId("b"), new NodeId("c")));
        table("b").put(b("p"), b("k"), b("a")).join();
        cluster.faults.heal();
        await("c holds the previous write", () -> valueOf(local("c").get(b("p"), b("k"))).equals("a"));
        cluster.node("b").stop();
        Entry entry = Entry.of(b("p"), b("k"), b("b"), table("a").clock().now());
        local("c").merge(entry);

        ReplicatedTable.Swapped swapped = table("a").swap(entry).join();

        assertThat(swapped.previous()).isEmpty();
        assertThat(valueOf(local("a").get(b("p"), b("k")))).isEqualTo("b");
    }

    /**
     * a swaps in "b" while its swap to c is held back and b's ack to a too: b meets the entry at once, and a
     * repair carries it to c ahead of c's own copy of the swap.
     */
    private ReplicatedTable.Swapped swapOvertakenByRepair() throws InterruptedException {
        cluster.faults.set(new NodeId("a"), new NodeId("c"), delay(400));
        cluster.faults.set(new NodeId("b"), new NodeId("a"), delay(800));
        Entry entry = Entry.of(b("p"), b("k"), b("b"), table("a").clock().now());
        CompletableFuture<ReplicatedTable.Swapped> swap = table("a").swap(entry);
        await("b holds the entry", () -> valueOf(local("b").get(b("p"), b("k"))).equals("b"));
        local("c").merge(entry);
        return swap.join();
    }

    private void awaitEveryReplicaHolds(String value) throws InterruptedException {
        for (String node : List.of("a", "b", "c")) {
            await("replica " + node + " holds " + value, () -> valueOf(local(node).get(b("p"), b("k"))).equals(value));
        }
    }

    private static NetworkFaults.LinkFaults delay(long millis) {
        return new NetworkFaults.LinkFaults(Duration.ofMillis(millis), Duration.ZERO, 0);
    }

    @Test
    void putAllWritesEveryPartitionKeyInOneRound() {
        List<Entry> entries = List.of(
                Entry.of(b("p1"), b("x"), b("1"), table("a").clock().now()),
                Entry.of(b("p2"), b("y"), b("2"), table("a").clock().now()),
                Entry.of(b("p1"), b("z"), b("3"), table("a").clock().now()),
                Entry.of(b("p3"), b("w"), b("4"), table("a").clock().now()));
        RoundTrips.Tally tally = new RoundTrips.Tally();
        try (RoundTrips.Binding counted = RoundTrips.bind(tally)) {
            table("a").putAll(entries).join();
        }

        assertThat(tally.metadata()).isEqualTo(1);
        for (Entry entry : entries) {
            assertThat(table("c").get(entry.partitionKey(), entry.sortKey()).join()).contains(entry);
        }
    }
}
