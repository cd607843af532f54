package dev.hangar.cluster.meta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.MergeRuleLaws;
import dev.hangar.cluster.table.Timestamp;
import dev.hangar.metadata.listing.ByteKeys;
import java.util.List;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * {@link MetadataMergeRule} keeps the laws of a merge rule (a total order; merge commutative,
 * associative, idempotent) over random entries of each kind of slot — live, dead and tombstoned,
 * with random orders and timestamps drawn from small ranges so that ties are frequent — and
 * orders version entries as it says.
 */
class VersionMergeRuleLawsTest {
    private static final MetadataMergeRule RULE = MetadataMergeRule.INSTANCE;
    private static final byte[] OBJECTS = MetaKeys.objects("photos");
    private static final byte[] KEY = ByteKeys.utf8("cat.jpg");
    private static final List<NodeId> NODES = List.of(new NodeId("a"), new NodeId("b"), new NodeId("c"));
    private static final int CASES = 2_000;

    @Test
    void nullSlotEntriesMergeLawfully() {
        MergeRuleLaws.check(RULE, MergeRuleLaws.seed(), CASES, random -> versionEntry(random, ObjectSlots.nullSlot(KEY)));
    }

    @Test
    void versionEntriesMergeLawfully() {
        MergeRuleLaws.check(RULE, MergeRuleLaws.seed(), CASES,
                random -> versionEntry(random, ObjectSlots.version(KEY, 7, "v1")));
    }

    @Test
    void indexAndLegacyEntriesMergeLawfullyByLastWriterWins() {
        for (byte[] sortKey : List.of(ObjectSlots.index(KEY, "v1"), ObjectSlots.legacy(KEY))) {
            MergeRuleLaws.check(RULE, MergeRuleLaws.seed(), CASES, random -> {
                Timestamp timestamp = timestamp(random);
                return random.nextInt(4) == 0 ? Entry.tombstone(OBJECTS, sortKey, timestamp)
                        : Entry.of(OBJECTS, sortKey, VersionValue.index(random.nextInt(3)), timestamp);
            });
        }
    }

    @Test
    void aHigherOrderWinsThenDeadOverLiveThenTheLaterWrite() {
        byte[] slot = ObjectSlots.nullSlot(KEY);
        Entry old = entry(slot, VersionValue.live(5, new byte[] {1}), 9);
        Entry newer = entry(slot, VersionValue.live(6, new byte[] {2}), 1);
        Entry deleted = entry(slot, VersionValue.dead(5), 2);
        Entry changed = entry(slot, VersionValue.live(5, new byte[] {3}), 10);

        // A higher order wins, whatever the timestamps: overwrites converge on the newest version.
        assertThat(RULE.merge(old, newer)).isEqualTo(newer);
        // At one order a deletion wins even over a later change: a deleted version stays deleted.
        assertThat(RULE.merge(changed, deleted)).isEqualTo(deleted);
        // A new version in the slot beats the deletion of an older one.
        assertThat(RULE.merge(deleted, newer)).isEqualTo(newer);
        // Two live values of one order: the later write (a metadata change) wins.
        assertThat(RULE.merge(old, changed)).isEqualTo(changed);
        // A value beats a tombstone in a version slot, however late the tombstone.
        assertThat(RULE.merge(Entry.tombstone(OBJECTS, slot, new Timestamp(99, 0, NODES.get(0))), old)).isEqualTo(old);
        assertThat(RULE.isDeletion(deleted)).isTrue();
        assertThat(RULE.isDeletion(old)).isFalse();
    }

    @Test
    void entriesOutsideObjectsPartitionsMergeByLastWriterWins() {
        byte[] buckets = MetaKeys.buckets();
        byte[] name = MetaKeys.bucket("photos");
        // A bucket record whose bytes happen to look like a version value of a higher order still loses to a later write.
        Entry older = Entry.of(buckets, name, VersionValue.live(9, new byte[] {1}).encode(), new Timestamp(1, 0, NODES.get(0)));
        Entry later = Entry.of(buckets, name, VersionValue.live(1, new byte[] {1}).encode(), new Timestamp(2, 0, NODES.get(0)));
        assertThat(RULE.merge(older, later)).isEqualTo(later);
    }

    private static Entry entry(byte[] sortKey, VersionValue value, long wall) {
        return Entry.of(OBJECTS, sortKey, value.encode(), new Timestamp(wall, 0, NODES.get(0)));
    }

    private static Entry versionEntry(RandomGenerator random, byte[] sortKey) {
        Timestamp timestamp = timestamp(random);
        return switch (random.nextInt(6)) {
            case 0 -> Entry.tombstone(OBJECTS, sortKey, timestamp);
            case 1, 2 -> Entry.of(OBJECTS, sortKey, VersionValue.dead(random.nextInt(3)).encode(), timestamp);
            // A value that is not a version value: the rule must order it too.
            case 3 -> Entry.of(OBJECTS, sortKey, new byte[] {(byte) random.nextInt(2)}, timestamp);
            default -> Entry.of(OBJECTS, sortKey,
                    VersionValue.live(random.nextInt(3), new byte[] {(byte) random.nextInt(2)}).encode(), timestamp);
        };
    }

    private static Timestamp timestamp(RandomGenerator random) {
        return new Timestamp(random.nextInt(3), random.nextInt(2), NODES.get(random.nextInt(3)));
    }
}
