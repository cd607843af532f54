package dev.hangar.cluster.meta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.MergeRuleLaws;
import dev.hangar.cluster.table.RocksDbLocalTable;
import dev.hangar.cluster.table.Timestamp;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.rocksdb.RecordFormat;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a replica reports lost in the {@code "null"} slot of a key ({@link DisplacedVersions} over
 * {@link RocksDbLocalTable#watchLosers}), over random overwrites delivered in random orders with
 * duplicates: orders drawn from a small range so that ties are frequent, and some versions placed
 * again at a higher order (same blocks), as a blind write does above a newer version it met.
 */
class DisplacedVersionsTest {
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    private static final List<NodeId> NODES = List.of(new NodeId("a"), new NodeId("b"), new NodeId("c"));
    private static final int CASES = 1_000;

    @TempDir
    Path dir;

    @Test
    void everyDisplacedVersionsBlocksAreReportedAndNeverTheWinnersUnlessACopyOfItLost() {
        long seed = MergeRuleLaws.seed();
        Random random = new Random(seed);
        try (RocksDbLocalTable table = RocksDbLocalTable.open(dir.resolve("table"), 1, MetadataMergeRule.INSTANCE)) {
            Set<BlockId> freed = new HashSet<>();
            Runnable unwatch = table.watchLosers((loser, winner) -> freed.addAll(DisplacedVersions.freedBy(loser, winner)));
            for (int trial = 0; trial < CASES; trial++) {
                freed.clear();
                String key = "k" + trial;
                List<Entry> versions = versions(random, key);
                List<Entry> deliveries = new ArrayList<>(versions);
                for (Entry version : versions) {
                    for (int copies = random.nextInt(3); copies > 0; copies--) {
                        deliveries.add(version);
                    }
                }
                Collections.shuffle(deliveries, random);
                deliveries.forEach(table::merge);

                Entry winner = versions.stream().reduce(MetadataMergeRule.INSTANCE::merge).orElseThrow();
                assertThat(table.get(winner.partitionKey(), winner.sortKey())).contains(winner);
                Set<BlockId> held = blocksOf(winner);
                Set<BlockId> displaced = new HashSet<>();
                versions.stream().filter(version -> version != winner).forEach(version -> displaced.addAll(blocksOf(version)));
                displaced.removeAll(held);
                assertThat(freed).as("seed %d, case %d", seed, trial).containsAll(displaced);
                boolean copyOfWinnerLost = versions.stream()
                        .anyMatch(version -> version != winner && blocksOf(version).equals(held));
                if (!copyOfWinnerLost) {
                    assertThat(freed).as("seed %d, case %d", seed, trial).doesNotContainAnyElementsOf(held);
                }
            }
            unwatch.run();
        }
    }

    @Test
    void aChangeOfTheVersionAndItsDeletionFreeNothingHere() {
        byte[] slot = ObjectSlots.nullSlot(ObjectSlots.writable("k"));
        BlockRef block = new BlockRef(BlockId.random(), 10, 0);
        Entry live = entry(slot, VersionValue.live(5, record("k", block, "one")), 1);
        Entry changed = entry(slot, VersionValue.live(5, record("k", block, "two")), 2);
        Entry deleted = entry(slot, VersionValue.dead(5), 3);
        Entry overwritten = entry(slot, VersionValue.live(6, record("k", new BlockRef(BlockId.random(), 10, 0), "x")), 0);

        assertThat(DisplacedVersions.freedBy(live, changed)).isEmpty();
        assertThat(DisplacedVersions.freedBy(changed, deleted)).as("left to the deleter").isEmpty();
        assertThat(DisplacedVersions.freedBy(deleted, overwritten)).isEmpty();
        assertThat(DisplacedVersions.freedBy(changed, overwritten)).containsExactly(block.id());
        assertThat(DisplacedVersions.freedBy(changed, entry(slot, VersionValue.dead(6), 4)))
                .as("a blind delete above it").containsExactly(block.id());
    }

    /** 2 to 8 live versions of the key's null slot, each with a block of its own or, sometimes, a copy of an earlier one higher up. */
    private static List<Entry> versions(Random random, String key) {
        byte[] slot = ObjectSlots.nullSlot(ObjectSlots.writable(key));
        List<Entry> versions = new ArrayList<>();
        List<BlockRef> blocks = new ArrayList<>();
        int count = 2 + random.nextInt(7);
        for (int i = 0; i < count; i++) {
            BlockRef block = !blocks.isEmpty() && random.nextInt(4) == 0
                    ? blocks.get(random.nextInt(blocks.size()))
                    : new BlockRef(BlockId.random(), 1 + random.nextInt(100), 0);
            blocks.add(block);
            long order = random.nextInt(5);
            versions.add(entry(slot, VersionValue.live(order, record(key, block, "e" + i)), random.nextInt(4)));
        }
        return versions;
    }

    private static byte[] record(String key, BlockRef block, String etag) {
        return RecordFormat.encodeObject(new ObjectVersion("photos", key, ObjectVersion.NULL_VERSION, NOW, block.size(),
                "\"" + etag + "\"", new ObjectContent.Blocks(List.of(block)), Map.of(), Map.of(), null, List.of()));
    }

    private static Entry entry(byte[] slot, VersionValue value, int wall) {
        return Entry.of(MetaKeys.objects("photos"), slot, value.encode(), new Timestamp(wall, 0, NODES.get(wall % 3)));
    }

    private static Set<BlockId> blocksOf(Entry entry) {
        Set<BlockId> ids = new HashSet<>();
        LocalReplica.versionsOf(entry).forEach(version -> ((ObjectContent.Blocks) version.content()).blocks()
                .forEach(block -> ids.add(block.id())));
        return ids;
    }
}
