package dev.hangar.cluster.table;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.layout.NodeId;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RocksDbLocalTableTest {
    private static final NodeId A = new NodeId("a");

    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(UTF_8);
    }

    @Test
    void mergeKeepsTheWinnerAcrossReopen() {
        try (RocksDbLocalTable table = RocksDbLocalTable.open(dir, 16)) {
            Entry newer = Entry.of(b("p"), b("k"), b("new"), new Timestamp(2, 0, A));
            assertThat(table.merge(newer)).isEqualTo(newer);
            Entry older = Entry.of(b("p"), b("k"), b("old"), new Timestamp(1, 0, A));
            assertThat(table.merge(older)).isEqualTo(newer);
        }
        try (RocksDbLocalTable table = RocksDbLocalTable.open(dir, 16)) {
            assertThat(table.get(b("p"), b("k")).orElseThrow().value()).isEqualTo(b("new"));
        }
    }

    @Test
    void rangeStaysWithinOnePartitionKeyInSortKeyOrder() {
        try (RocksDbLocalTable table = RocksDbLocalTable.open(dir, 1)) {
            // One partition for all: only the length prefix keeps "a"+"b…" apart from "ab"+"…".
            for (String key : List.of("c", "a", "b", "\u00ff")) {
                table.merge(Entry.of(b("a"), b(key), b(key), new Timestamp(1, 0, A)));
            }
            table.merge(Entry.of(b("ab"), b(""), b("other"), new Timestamp(1, 0, A)));

            assertThat(table.range(b("a"), b(""), 10)).extracting(e -> new String(e.sortKey(), UTF_8))
                    .containsExactly("a", "b", "c", "\u00ff");
            assertThat(table.range(b("a"), b("b"), 2)).extracting(e -> new String(e.sortKey(), UTF_8))
                    .containsExactly("b", "c");
            assertThat(table.range(b("a"), b(""), b("c"), 10)).extracting(e -> new String(e.sortKey(), UTF_8))
                    .containsExactly("a", "b");
            List<Entry> all = new ArrayList<>();
            table.forEachInPartition(0, all::add);
            assertThat(all).hasSize(5);
        }
    }

    @Test
    void rangeCountingLiveCountsOnlyEntriesThatAreNoDeletionsUpToTheCap() {
        try (RocksDbLocalTable table = RocksDbLocalTable.open(dir, 1)) {
            for (String key : List.of("a", "b", "c", "d", "e", "f")) {
                table.merge(Entry.tombstone(b("p"), b(key), new Timestamp(1, 0, A)));
            }
            for (String key : List.of("c1", "e1", "f1")) {
                table.merge(Entry.of(b("p"), b(key), b(key), new Timestamp(1, 0, A)));
            }

            // a b c c1 d e e1 f f1: two live entries reached before the cap of 10 entries
            assertThat(table.rangeCountingLive(b("p"), b(""), null, 2, 10)).extracting(e -> new String(e.sortKey(), UTF_8))
                    .containsExactly("a", "b", "c", "c1", "d", "e", "e1");
            // the cap reached first
            assertThat(table.rangeCountingLive(b("p"), b(""), null, 2, 3)).extracting(e -> new String(e.sortKey(), UTF_8))
                    .containsExactly("a", "b", "c");
            // neither: the range is exhausted
            assertThat(table.rangeCountingLive(b("p"), b("e"), null, 5, 10)).extracting(e -> new String(e.sortKey(), UTF_8))
                    .containsExactly("e", "e1", "f", "f1");
            assertThat(table.rangeCountingLive(b("p"), b(""), b("d"), 5, 10)).hasSize(4);
        }
    }

    @Test
    void purgesOnlyTombstonesOlderThanTheCutoff() {
        try (RocksDbLocalTable table = RocksDbLocalTable.open(dir, 16)) {
            table.merge(Entry.tombstone(b("p"), b("old"), new Timestamp(100, 0, A)));
            table.merge(Entry.tombstone(b("p"), b("recent"), new Timestamp(500, 0, A)));
            table.merge(Entry.of(b("p"), b("live"), b("v"), new Timestamp(100, 0, A)));

            assertThat(table.purgeTombstonesBefore(200)).isEqualTo(1);
            assertThat(table.get(b("p"), b("old"))).isEmpty();
            assertThat(table.get(b("p"), b("recent"))).isPresent();
            assertThat(table.get(b("p"), b("live"))).isPresent();
        }
    }

    @Test
    void purgesWhatTheMergeRuleCallsADeletion() {
        MergeRule deadIsDeleted = new MergeRule() {
            @Override
            public int compare(Entry first, Entry second) {
                return MergeRule.lastWriterWins(first, second);
            }

            @Override
            public boolean isDeletion(Entry entry) {
                return entry.isTombstone() || java.util.Arrays.equals(entry.value(), b("dead"));
            }
        };
        try (RocksDbLocalTable table = RocksDbLocalTable.open(dir, 16, deadIsDeleted)) {
            table.merge(Entry.of(b("p"), b("dead"), b("dead"), new Timestamp(100, 0, A)));
            table.merge(Entry.of(b("p"), b("live"), b("v"), new Timestamp(100, 0, A)));

            assertThat(table.purgeTombstonesBefore(200)).isEqualTo(1);
            assertThat(table.get(b("p"), b("dead"))).isEmpty();
            assertThat(table.get(b("p"), b("live"))).isPresent();
        }
    }
}
