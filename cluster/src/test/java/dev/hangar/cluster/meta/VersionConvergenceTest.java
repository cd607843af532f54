package dev.hangar.cluster.meta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.HybridLogicalClock;
import dev.hangar.cluster.table.MergeRuleLaws;
import dev.hangar.cluster.table.RocksDbLocalTable;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Precondition;
import dev.hangar.metadata.command.LockCheck;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.command.VersionChange;
import dev.hangar.metadata.listing.ByteKeys;
import dev.hangar.metadata.rocksdb.RecordFormat;
import dev.hangar.metadata.state.MetadataStateMachine;
import dev.hangar.metadata.state.Outcome;
import dev.hangar.metadata.state.StoredVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Convergence, as a property: random sequences of commands (put a version, put the {@code "null"}
 * version, delete a version, change a version), each applied by the store's write path — {@link
 * MetadataStateMachine} over {@link ReplicatedState} — through one of three coordinators that each
 * see only part of what the others wrote (so commands race), give entries; delivered to three
 * replicas (RocksDB, merging by {@link MetadataMergeRule}) in random orders with duplicates, they
 * leave every replica with the same entries and the same versions. And what merges is never lost:
 * every version put and never deleted is on every replica. A third of the cases start from a key
 * the previous release wrote ({@link LegacyStacks}), which racing first mutations migrate.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class VersionConvergenceTest {
    private static final int CASES = 1_000;
    private static final List<String> KEYS = List.of("k", "k\u0001x");
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");

    @TempDir
    Path dir;

    private final List<RocksDbLocalTable> replicas = new ArrayList<>();

    @BeforeEach
    void openReplicas() {
        for (int i = 0; i < 3; i++) {
            replicas.add(RocksDbLocalTable.open(dir.resolve("replica-" + i), 16, MetadataMergeRule.INSTANCE));
        }
    }

    @AfterEach
    void closeReplicas() {
        replicas.forEach(RocksDbLocalTable::close);
    }

    /** A coordinator: its clock and what of the others' writes has reached it. */
    private record Coordinator(HybridLogicalClock clock, TreeMap<byte[], Entry> view) {
        void merge(Entry entry) {
            view.merge(entry.sortKey(), entry, MetadataMergeRule.INSTANCE::merge);
        }
    }

    @Test
    void replicasThatReceiveTheSameEntriesInAnyOrderWithDuplicatesHoldTheSameState() {
        long seed = MergeRuleLaws.seed();
        RandomGenerator random = MergeRuleLaws.generator(seed);
        for (int run = 0; run < CASES; run++) {
            runCase(random, "bucket-" + run, "seed " + seed + ", case " + run);
        }
    }

    private void runCase(RandomGenerator random, String bucket, String replay) {
        // One slow shared clock: stamps and timestamps of different coordinators often tie.
        AtomicLong millis = new AtomicLong(1_000);
        List<Coordinator> coordinators = new ArrayList<>();
        for (String node : List.of("a", "b", "c")) {
            coordinators.add(new Coordinator(new HybridLogicalClock(new NodeId(node), millis::get, Duration.ofDays(1)),
                    new TreeMap<>(Arrays::compareUnsigned)));
        }
        SettingsCache settings = new SettingsCache(EntrySource.of(List.of(Entry.of(MetaKeys.buckets(),
                MetaKeys.bucket(bucket), RecordFormat.encodeBucket(new BucketRecord(bucket, NOW, "us-east-1")),
                coordinators.getFirst().clock().now()))), Duration.ZERO);
        List<Entry> sent = new ArrayList<>();
        List<String> ids = new ArrayList<>(List.of(ObjectVersion.NULL_VERSION));
        Set<List<String>> putIds = new HashSet<>();
        Set<List<String>> deletedIds = new HashSet<>();
        if (random.nextInt(3) == 0) {
            // A key the previous release wrote: its first mutation, wherever it runs, migrates it.
            String key = KEYS.getFirst();
            Entry legacy = Entry.of(MetaKeys.objects(bucket), ObjectSlots.legacy(ByteKeys.utf8(key)),
                    LegacyStacks.encode(List.of(version(bucket, key, "old-2", -2),
                            version(bucket, key, ObjectVersion.NULL_VERSION, -1), version(bucket, key, "old-1", -3))),
                    coordinators.getFirst().clock().now());
            sent.add(legacy);
            coordinators.forEach(coordinator -> coordinator.merge(legacy));
            ids.addAll(List.of("old-1", "old-2"));
            putIds.addAll(List.of(List.of(key, "old-1"), List.of(key, "old-2")));
        }
        int commands = 5 + random.nextInt(20);
        for (int step = 0; step < commands; step++) {
            millis.addAndGet(random.nextInt(2));
            Coordinator coordinator = coordinators.get(random.nextInt(coordinators.size()));
            String key = KEYS.get(random.nextInt(KEYS.size()));
            String known = ids.get(random.nextInt(ids.size()));
            MetadataCommand<?> command = switch (random.nextInt(5)) {
                case 0, 1 -> {
                    String id = "v" + step;
                    ids.add(id);
                    yield new MetadataCommand.PutVersion(version(bucket, key, id, step), new Precondition.None(), LockCheck.NONE);
                }
                case 2 -> new MetadataCommand.PutVersion(
                        version(bucket, key, ObjectVersion.NULL_VERSION, step), new Precondition.None(), LockCheck.NONE);
                case 3 -> new MetadataCommand.DeleteVersion(bucket, key, known, LockCheck.NONE, null);
                default -> new MetadataCommand.ChangeVersion(bucket, key, known,
                        new VersionChange.SetTags(Map.of("step", Integer.toString(step))));
            };
            ReplicatedState state = new ReplicatedState(EntrySource.of(coordinator.view().values()), settings, false);
            Outcome<?> outcome = MetadataStateMachine.apply(command, VersionValue.stamp(coordinator.clock().now()), state);
            assertThat(outcome).as("%s, step %d: %s", replay, step, command).isInstanceOf(Outcome.Done.class);
            if (command instanceof MetadataCommand.PutVersion put && !put.version().versionId().equals(ObjectVersion.NULL_VERSION)) {
                putIds.add(List.of(key, put.version().versionId()));
            }
            if (command instanceof MetadataCommand.DeleteVersion delete) {
                deletedIds.add(List.of(key, delete.versionId()));
            }
            for (Entry entry : state.entries(coordinator.clock().now())) {
                sent.add(entry);
                coordinator.merge(entry);
                // The write reaches each other coordinator's view, or not yet: their commands race it.
                for (Coordinator other : coordinators) {
                    if (other != coordinator && random.nextBoolean()) {
                        other.merge(entry);
                    }
                }
            }
        }

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
            held.add(replica.range(MetaKeys.objects(bucket), new byte[0], Integer.MAX_VALUE));
        }
        for (int i = 1; i < held.size(); i++) {
            assertThat(held.get(i)).as("%s: the entries of replica %d and of replica 0", replay, i)
                    .containsExactlyElementsOf(held.getFirst());
        }
        for (String key : KEYS) {
            List<StoredVersion> first = KeyRead.read(EntrySource.of(held.getFirst()), bucket, key, true).versions();
            for (List<Entry> replica : held) {
                assertThat(KeyRead.read(EntrySource.of(replica), bucket, key, true).versions())
                        .as("%s: the versions of %s", replay, key).isEqualTo(first);
            }
            Set<String> listed = new HashSet<>();
            first.forEach(stored -> listed.add(stored.versionId()));
            for (List<String> put : putIds) {
                if (put.getFirst().equals(key) && !deletedIds.contains(put)) {
                    assertThat(listed).as("%s: version %s of %s, put and never deleted", replay, put.get(1), key)
                            .contains(put.get(1));
                }
            }
        }
    }

    private static ObjectVersion version(String bucket, String key, String versionId, int step) {
        byte[] data = ("step " + step).getBytes(StandardCharsets.UTF_8);
        return new ObjectVersion(bucket, key, versionId, NOW, data.length, "\"" + step + "\"",
                new ObjectContent.Inline(data), Map.of(), Map.of(), null, List.of());
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
