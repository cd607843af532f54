package dev.hangar.cluster.meta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.MergeRuleLaws;
import dev.hangar.cluster.table.RocksDbLocalTable;
import dev.hangar.cluster.table.Timestamp;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectLock;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.RetentionMode;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.command.VersionChange;
import dev.hangar.metadata.listing.ByteKeys;
import dev.hangar.metadata.rocksdb.RecordFormat;
import dev.hangar.metadata.state.MetadataStateMachine;
import dev.hangar.metadata.state.Outcome;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The field-by-field merge of a version's copies ({@link VersionJoin} under {@link MetadataMergeRule}),
 * as properties over random cases ({@value #CASES} per law, seeded: {@code -Dhangar.test.seed=...}
 * replays a failure):
 *
 * <ul>
 *   <li>merge is commutative, associative and idempotent over random entries of a version slot:
 *       live copies of two different versions at two orders with random field values and random
 *       field stamps (often tied), dead values and tombstones;
 *   <li>random changes of random fields of one version, each applied by the store's write path
 *       ({@link MetadataStateMachine} over {@link ReplicatedState}) through one of three
 *       coordinators that see only part of what the others wrote, delivered to three RocksDB
 *       replicas in random orders with duplicates, leave every replica with the same entries, and
 *       each field with the value of the latest change of that field.
 * </ul>
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class VersionFieldMergeTest {
    private static final int CASES = 2_000;
    private static final MetadataMergeRule RULE = MetadataMergeRule.INSTANCE;
    private static final String BUCKET = "photos";
    private static final byte[] OBJECTS = MetaKeys.objects(BUCKET);
    private static final byte[] KEY = ByteKeys.utf8("cat.jpg");
    private static final List<NodeId> NODES = List.of(new NodeId("a"), new NodeId("b"), new NodeId("c"));
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    /** When retention changes are judged: after every date drawn, so that no change is refused. */
    private static final Instant LATER = Instant.parse("2100-01-01T00:00:00Z");

    @TempDir
    Path dir;

    private final List<RocksDbLocalTable> replicas = new ArrayList<>();

    @BeforeEach
    void openReplicas() {
        for (int i = 0; i < 3; i++) {
            replicas.add(RocksDbLocalTable.open(dir.resolve("replica-" + i), 16, RULE));
        }
    }

    @AfterEach
    void closeReplicas() {
        replicas.forEach(RocksDbLocalTable::close);
    }

    // Laws

    @Test
    void mergeOfNullSlotEntriesIsCommutativeAssociativeAndIdempotent() {
        byte[] slot = ObjectSlots.nullSlot(KEY);
        MergeRuleLaws.checkJoin(RULE, MergeRuleLaws.seed(), CASES, random -> slotEntry(random, slot, ObjectVersion.NULL_VERSION));
    }

    @Test
    void mergeOfVersionEntriesIsCommutativeAssociativeAndIdempotent() {
        byte[] slot = ObjectSlots.version(KEY, 7, "v1");
        MergeRuleLaws.checkJoin(RULE, MergeRuleLaws.seed(), CASES, random -> slotEntry(random, slot, "v1"));
    }

    @Test
    void changesOfDifferentFieldsThroughDifferentNodesAreBothKept() {
        byte[] slot = ObjectSlots.version(KEY, 7, "v1");
        ObjectVersion written = version("v1", 0);
        Entry original = Entry.of(OBJECTS, slot, VersionValue.live(7, RecordFormat.encodeObject(written)).encode(), at(10, 0));
        Timestamp originalStamp = original.timestamp();
        Map<VersionField, Timestamp> unchanged = new EnumMap<>(VersionField.class);
        for (VersionField field : VersionField.values()) {
            unchanged.put(field, originalStamp);
        }
        Map<VersionField, Timestamp> keepAllButTags = new EnumMap<>(unchanged);
        keepAllButTags.remove(VersionField.TAGS);
        Map<VersionField, Timestamp> keepAllButHold = new EnumMap<>(unchanged);
        keepAllButHold.remove(VersionField.LEGAL_HOLD);
        ObjectVersion tagged = written.withTags(Map.of("colour", "black"));
        ObjectVersion held = written.withLock(new ObjectLock(null, null, true));
        Entry tagging = Entry.of(OBJECTS, slot,
                VersionValue.live(7, RecordFormat.encodeObject(tagged), keepAllButTags).encode(), at(20, 1));
        Entry holding = Entry.of(OBJECTS, slot,
                VersionValue.live(7, RecordFormat.encodeObject(held), keepAllButHold).encode(), at(20, 2));

        for (Entry merged : List.of(RULE.merge(RULE.merge(original, tagging), holding),
                RULE.merge(holding, RULE.merge(tagging, original)))) {
            ObjectVersion version = RecordFormat.decodeObject(BUCKET, "cat.jpg", VersionValue.decode(merged.value()).record());
            assertThat(version.tags()).isEqualTo(Map.of("colour", "black"));
            assertThat(version.lock()).isEqualTo(new ObjectLock(null, null, true));
            assertThat(merged.timestamp()).isEqualTo(at(20, 2));
        }
        // A later change of one field wins over the earlier value of that field, whole-entry order aside.
        Entry untagging = Entry.of(OBJECTS, slot,
                VersionValue.live(7, RecordFormat.encodeObject(written), keepAllButTags).encode(), at(30, 0));
        ObjectVersion last = RecordFormat.decodeObject(BUCKET, "cat.jpg",
                VersionValue.decode(RULE.merge(RULE.merge(tagging, holding), untagging).value()).record());
        assertThat(last.tags()).isEmpty();
        assertThat(last.lock()).isEqualTo(new ObjectLock(null, null, true));
    }

    // Convergence

    @Test
    void replicasThatReceiveTheSameFieldChangesInAnyOrderWithDuplicatesHoldTheSameVersion() {
        long seed = MergeRuleLaws.seed();
        RandomGenerator random = MergeRuleLaws.generator(seed);
        for (int run = 0; run < CASES / 2; run++) {
            runCase(random, run, "seed " + seed + ", case " + run);
        }
    }

    /** A change that changed a field: the field's value after it, and the change's write timestamp. */
    private record FieldWrite(Timestamp at, ObjectVersion after) {}

    private void runCase(RandomGenerator random, int run, String replay) {
        String key = "k" + run;
        byte[] keyBytes = ByteKeys.utf8(key);
        AtomicLong millis = new AtomicLong(1_000);
        List<TestCoordinator> coordinators = TestCoordinator.of(NODES, millis);
        SettingsCache settings = new SettingsCache(EntrySource.of(List.of()), Duration.ZERO);
        String versionId = random.nextBoolean() ? ObjectVersion.NULL_VERSION : "v1";
        ObjectVersion written = version(versionId, 0).withTags(Map.of()).withLock(null);
        Timestamp writtenAt = coordinators.getFirst().clock().now();
        byte[] slot = versionId.equals(ObjectVersion.NULL_VERSION) ? ObjectSlots.nullSlot(keyBytes)
                : ObjectSlots.version(keyBytes, 5, versionId);
        List<Entry> sent = new ArrayList<>(List.of(
                Entry.of(OBJECTS, slot, VersionValue.live(5, RecordFormat.encodeObject(written)).encode(), writtenAt)));
        if (!versionId.equals(ObjectVersion.NULL_VERSION)) {
            sent.add(Entry.of(OBJECTS, ObjectSlots.index(keyBytes, versionId), VersionValue.index(5), writtenAt));
        }
        coordinators.forEach(coordinator -> sent.forEach(coordinator::merge));

        Map<VersionField, FieldWrite> latest = new EnumMap<>(VersionField.class);
        int changes = 2 + random.nextInt(12);
        for (int step = 0; step < changes; step++) {
            millis.addAndGet(random.nextInt(2));
            TestCoordinator coordinator = coordinators.get(random.nextInt(coordinators.size()));
            ReplicatedState state = new ReplicatedState(EntrySource.of(coordinator.view().values()), settings, false);
            ObjectVersion before = KeyRead.read(EntrySource.of(coordinator.view().values()), BUCKET, key, true)
                    .versions().getFirst().version();
            MetadataCommand.ChangeVersion command = new MetadataCommand.ChangeVersion(BUCKET, key, versionId, change(random));
            Outcome<?> outcome = MetadataStateMachine.apply(command, VersionValue.stamp(coordinator.clock().now()), state);
            assertThat(outcome).as("%s, step %d: %s", replay, step, command).isInstanceOf(Outcome.Done.class);
            ObjectVersion after = ((Optional<?>) ((Outcome.Done<?>) outcome).value()).map(ObjectVersion.class::cast)
                    .orElseThrow();
            Timestamp timestamp = coordinator.clock().now();
            for (VersionField field : VersionField.values()) {
                if (!field.same(before, after)) {
                    latest.merge(field, new FieldWrite(timestamp, after),
                            (was, now) -> was.at().compareTo(now.at()) > 0 ? was : now);
                }
            }
            for (Entry entry : state.entries(timestamp)) {
                sent.add(entry);
                coordinator.merge(entry);
                // The write reaches each other coordinator's view, or not yet: their changes race it.
                for (TestCoordinator other : coordinators) {
                    if (other != coordinator && random.nextBoolean()) {
                        other.merge(entry);
                    }
                }
            }
        }

        byte[] from = ObjectSlots.legacy(keyBytes);
        List<List<Entry>> held = new ArrayList<>();
        for (RocksDbLocalTable replica : replicas) {
            List<Entry> delivery = new ArrayList<>(sent);
            for (Entry entry : sent) {
                if (random.nextInt(3) == 0) {
                    delivery.add(entry);
                }
            }
            shuffle(delivery, random);
            delivery.forEach(replica::merge);
            held.add(replica.range(OBJECTS, from, ObjectSlots.pastKey(keyBytes), Integer.MAX_VALUE));
        }
        for (int i = 1; i < held.size(); i++) {
            assertThat(held.get(i)).as("%s: the entries of replica %d and of replica 0", replay, i)
                    .containsExactlyElementsOf(held.getFirst());
        }
        ObjectVersion merged = KeyRead.read(EntrySource.of(held.getFirst()), BUCKET, key, true).versions().getFirst().version();
        for (VersionField field : VersionField.values()) {
            ObjectVersion expected = latest.containsKey(field) ? latest.get(field).after() : written;
            assertThat(field.compare(merged, expected)).as("%s: %s of %s, as the latest change of it left it: %s",
                    replay, field, merged, expected).isZero();
        }
    }

    private static VersionChange change(RandomGenerator random) {
        return switch (random.nextInt(4)) {
            case 0 -> new VersionChange.SetTags(tags(random));
            case 1 -> new VersionChange.SetLegalHold(random.nextBoolean());
            case 2 -> random.nextInt(3) == 0
                    ? new VersionChange.SetRetention(null, null, LATER, true)
                    : new VersionChange.SetRetention(random.nextBoolean() ? RetentionMode.GOVERNANCE : RetentionMode.COMPLIANCE,
                            NOW.plusSeconds(random.nextInt(3)), LATER, true);
            default -> new VersionChange.SetAcl(acl(random));
        };
    }

    // Random entries

    private static Entry slotEntry(RandomGenerator random, byte[] slot, String versionId) {
        Timestamp timestamp = at(random.nextInt(3), random.nextInt(2));
        return switch (random.nextInt(8)) {
            case 0 -> Entry.tombstone(OBJECTS, slot, timestamp);
            case 1 -> Entry.of(OBJECTS, slot, VersionValue.dead(random.nextInt(2)).encode(), timestamp);
            default -> {
                // Two versions (two bases) at two orders; random fields, each stamped or not.
                ObjectVersion version = version(versionId, random.nextInt(2)).withTags(tags(random))
                        .withLock(lock(random)).withAcl(acl(random));
                Map<VersionField, Timestamp> stamps = new EnumMap<>(VersionField.class);
                for (VersionField field : VersionField.values()) {
                    if (random.nextBoolean()) {
                        stamps.put(field, at(random.nextInt(3), random.nextInt(2)));
                    }
                }
                yield Entry.of(OBJECTS, slot,
                        VersionValue.live(random.nextInt(2), RecordFormat.encodeObject(version), stamps).encode(), timestamp);
            }
        };
    }

    private static Map<String, String> tags(RandomGenerator random) {
        return switch (random.nextInt(3)) {
            case 0 -> Map.of();
            case 1 -> Map.of("colour", "black");
            default -> Map.of("colour", "white", "size", "big");
        };
    }

    private static ObjectLock lock(RandomGenerator random) {
        return switch (random.nextInt(5)) {
            case 0 -> null;
            case 1 -> new ObjectLock(null, null, false);
            case 2 -> new ObjectLock(null, null, true);
            case 3 -> new ObjectLock(RetentionMode.GOVERNANCE, NOW, false);
            default -> new ObjectLock(RetentionMode.COMPLIANCE, NOW.plusSeconds(1), true);
        };
    }

    private static String acl(RandomGenerator random) {
        return switch (random.nextInt(3)) {
            case 0 -> null;
            case 1 -> "private";
            default -> "public-read";
        };
    }

    private static ObjectVersion version(String versionId, int base) {
        byte[] data = {(byte) base};
        return new ObjectVersion(BUCKET, "cat.jpg", versionId, NOW, data.length, "\"" + base + "\"",
                new ObjectContent.Inline(data), Map.of(), Map.of(), null, List.of());
    }

    private static Timestamp at(long wall, int logical) {
        return new Timestamp(wall, logical, NODES.get(logical % NODES.size()));
    }

    private static void shuffle(List<Entry> entries, RandomGenerator random) {
        for (int i = entries.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            Entry swapped = entries.get(i);
            entries.set(i, entries.get(j));
            entries.set(j, swapped);
        }
    }
}
