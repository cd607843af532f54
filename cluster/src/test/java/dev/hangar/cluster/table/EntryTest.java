package dev.hangar.cluster.table;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.layout.NodeId;
import org.junit.jupiter.api.Test;

class EntryTest {
    private static final NodeId A = new NodeId("a");
    private static final NodeId B = new NodeId("b");
    private static final byte[] PK = "bucket".getBytes(UTF_8);
    private static final byte[] SK = "key".getBytes(UTF_8);

    private static Entry value(String v, long wall, NodeId node) {
        return Entry.of(PK, SK, v.getBytes(UTF_8), new Timestamp(wall, 0, node));
    }

    @Test
    void laterTimestampWinsWhicheverSideMerges() {
        Entry older = value("old", 1, B);
        Entry newer = value("new", 2, A);
        assertThat(older.merge(newer)).isEqualTo(newer);
        assertThat(newer.merge(older)).isEqualTo(newer);
        assertThat(newer.merge(newer)).isEqualTo(newer);
    }

    @Test
    void nodeIdBreaksTiesAndTombstoneBeatsEqualValue() {
        Entry fromA = value("x", 5, A);
        Entry fromB = value("y", 5, B);
        assertThat(fromA.merge(fromB)).isEqualTo(fromB);
        assertThat(fromB.merge(fromA)).isEqualTo(fromB);

        Entry tombstone = Entry.tombstone(PK, SK, new Timestamp(5, 0, A));
        assertThat(fromA.merge(tombstone)).isEqualTo(tombstone);
        assertThat(tombstone.merge(fromA)).isEqualTo(tombstone);
    }

    @Test
    void tombstoneLosesToNewerValue() {
        Entry tombstone = Entry.tombstone(PK, SK, new Timestamp(5, 0, A));
        Entry newer = value("back", 6, A);
        assertThat(tombstone.merge(newer)).isEqualTo(newer);
        assertThat(Entry.winner(null, tombstone)).isEqualTo(tombstone);
    }

    @Test
    void codecRoundTripsValuesAndTombstones() {
        Entry live = value("v", 123, B);
        Entry dead = Entry.tombstone(PK, new byte[0], new Timestamp(9, 3, A));
        assertThat(EntryCodec.decode(EntryCodec.encode(live))).isEqualTo(live);
        assertThat(EntryCodec.decode(EntryCodec.encode(dead))).isEqualTo(dead);
        assertThat(Wire.entries(Wire.entries(java.util.List.of(live, dead)))).containsExactly(live, dead);
    }
}
