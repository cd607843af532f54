package dev.hangar.cluster.meta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.MergeRuleLaws;
import dev.hangar.cluster.table.RocksDbLocalTable;
import dev.hangar.cluster.table.Timestamp;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketPermission;
import dev.hangar.metadata.command.AccessKeyChange;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.listing.ByteKeys;
import dev.hangar.metadata.rocksdb.RecordFormat;
import dev.hangar.metadata.state.MetadataStateMachine;
import dev.hangar.metadata.state.Outcome;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The field-by-field merge of an access key's copies ({@link AccessKeyJoin} under {@link
 * MetadataMergeRule}), as properties over random cases ({@value #CASES} per law, seeded: {@code
 * -Dhangar.test.seed=...} replays a failure):
 *
 * <ul>
 *   <li>merge is commutative, associative and idempotent over random entries of one key: values
 *       in both formats, of two incarnations and two creation times, with random grants,
 *       revocations, secrets and stamps (often tied), and tombstones;
 *   <li>random grants, revocations, secret rotations and create-bucket permissions, each applied
 *       by the store's write path ({@link MetadataStateMachine} over {@link ReplicatedState})
 *       through one of three coordinators that see only part of what the others wrote, delivered
 *       to three RocksDB replicas in random orders with duplicates, leave every replica with the
 *       same entry, and each field (each bucket's grant) as the latest change of it left it.
 * </ul>
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class AccessKeyMergeTest {
    private static final int CASES = 2_000;
    private static final MetadataMergeRule RULE = MetadataMergeRule.INSTANCE;
    private static final String ID = "GK1";
    private static final byte[] KEYS = MetaKeys.accessKeys();
    private static final byte[] SORT_KEY = ByteKeys.utf8(ID);
    private static final List<NodeId> NODES = List.of(new NodeId("a"), new NodeId("b"), new NodeId("c"));
    private static final List<String> BUCKETS = List.of("photos", "videos", "logs");
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");

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
    void mergeOfAccessKeyEntriesIsCommutativeAssociativeAndIdempotent() {
        MergeRuleLaws.checkJoin(RULE, MergeRuleLaws.seed(), CASES, AccessKeyMergeTest::randomEntry);
    }

    @Test
    void grantsToDifferentBucketsThroughDifferentNodesAreAllKept() {
        AccessKey put = new AccessKey(ID, "secret", NOW, false, Map.of());
        Entry original = Entry.of(KEYS, SORT_KEY, RecordFormat.encodeAccessKey(put), at(10, 0));
        AccessKeyValue.Resolved read = AccessKeyValue.put(put).resolve(original.timestamp());
        BucketPermission reader = new BucketPermission(true, false, false);
        Entry photos = Entry.of(KEYS, SORT_KEY,
                AccessKeyValue.changed(read, put.withBucketPermission("photos", reader)).encode(), at(20, 1));
        Entry videos = Entry.of(KEYS, SORT_KEY,
                AccessKeyValue.changed(read, put.withBucketPermission("videos", reader)).encode(), at(20, 2));

        Entry merged = RULE.merge(RULE.merge(original, photos), videos);
        assertThat(AccessKeyValue.decodeKey(ID, merged.value()).buckets())
                .isEqualTo(Map.of("photos", reader, "videos", reader));
        assertThat(RULE.merge(videos, RULE.merge(photos, original))).isEqualTo(merged);

        // A revocation is a stamped entry of its own: it beats the older grant wherever they meet.
        AccessKeyValue.Resolved both = AccessKeyValue.decode(ID, merged.value()).resolve(merged.timestamp());
        Entry revoked = Entry.of(KEYS, SORT_KEY, AccessKeyValue.changed(both,
                AccessKeyValue.decodeKey(ID, merged.value()).withBucketPermission("photos", null)).encode(), at(30, 0));
        assertThat(AccessKeyValue.decodeKey(ID, RULE.merge(photos, revoked).value()).buckets())
                .isEqualTo(Map.of("videos", reader));
        // A deletion beats a change of the incarnation it deleted, however late the change.
        Entry deleted = Entry.tombstone(KEYS, SORT_KEY, at(15, 0));
        assertThat(RULE.merge(revoked, deleted)).isEqualTo(deleted);
        // A key put again after its deletion is a new incarnation, and wins.
        Entry putAgain = Entry.of(KEYS, SORT_KEY, RecordFormat.encodeAccessKey(put), at(16, 0));
        assertThat(RULE.merge(deleted, putAgain)).isEqualTo(putAgain);
    }

    // Convergence

    @Test
    void replicasThatReceiveTheSameKeyChangesInAnyOrderWithDuplicatesHoldTheSameKey() {
        long seed = MergeRuleLaws.seed();
        RandomGenerator random = MergeRuleLaws.generator(seed);
        for (int run = 0; run < CASES / 2; run++) {
            runCase(random, run, "seed " + seed + ", case " + run);
        }
    }

    /** The last change of one field: when it was written and the field's value after it. */
    private record FieldWrite(Timestamp at, Object value) {}

    private void runCase(RandomGenerator random, int run, String replay) {
        String id = "GK" + run;
        byte[] sortKey = ByteKeys.utf8(id);
        AtomicLong millis = new AtomicLong(1_000);
        List<TestCoordinator> coordinators = TestCoordinator.of(NODES, millis);
        SettingsCache settings = new SettingsCache(EntrySource.of(List.of()), Duration.ZERO);
        AccessKey put = new AccessKey(id, "secret-0", NOW, false, Map.of("photos", new BucketPermission(true, true, false)));
        List<Entry> sent = new ArrayList<>(List.of(
                Entry.of(KEYS, sortKey, RecordFormat.encodeAccessKey(put), coordinators.getFirst().clock().now())));
        coordinators.forEach(coordinator -> sent.forEach(coordinator::merge));

        Map<String, FieldWrite> latest = new HashMap<>();
        int changes = 2 + random.nextInt(12);
        for (int step = 0; step < changes; step++) {
            millis.addAndGet(random.nextInt(2));
            TestCoordinator coordinator = coordinators.get(random.nextInt(coordinators.size()));
            EntrySource view = EntrySource.of(coordinator.view().values());
            AccessKey before = AccessKeyValue.decodeKey(id, view.get(KEYS, sortKey).join().orElseThrow().value());
            AccessKeyChange change = switch (random.nextInt(4)) {
                case 0 -> new AccessKeyChange.SetCreateBuckets(random.nextBoolean());
                case 1 -> new AccessKeyChange.ReplaceSecret(before.secretKey(), "secret-" + step);
                default -> new AccessKeyChange.SetBucketPermission(BUCKETS.get(random.nextInt(BUCKETS.size())),
                        random.nextInt(3) == 0 ? null : new BucketPermission(random.nextBoolean(), random.nextBoolean(), false));
            };
            ReplicatedState state = new ReplicatedState(view, settings, true);
            Outcome<?> outcome = MetadataStateMachine.apply(new MetadataCommand.ChangeAccessKey(id, change), 0, state);
            assertThat(outcome).as("%s, step %d: %s", replay, step, change).isInstanceOf(Outcome.Done.class);
            AccessKey after = ((Optional<?>) ((Outcome.Done<?>) outcome).value()).map(AccessKey.class::cast).orElseThrow();
            Timestamp timestamp = coordinator.clock().now();
            fields(before).forEach((field, value) -> {
                Object now = fields(after).get(field);
                if (!Objects.equals(value, now)) {
                    latest.merge(field, new FieldWrite(timestamp, now), (was, is) -> was.at().compareTo(is.at()) > 0 ? was : is);
                }
            });
            for (Entry entry : state.entries(timestamp)) {
                sent.add(entry);
                coordinator.merge(entry);
                for (TestCoordinator other : coordinators) {
                    if (other != coordinator && random.nextBoolean()) {
                        other.merge(entry);
                    }
                }
            }
        }

        List<Entry> held = new ArrayList<>();
        for (RocksDbLocalTable replica : replicas) {
            List<Entry> delivery = new ArrayList<>(sent);
            for (Entry entry : sent) {
                if (random.nextInt(3) == 0) {
                    delivery.add(entry);
                }
            }
            shuffle(delivery, random);
            delivery.forEach(replica::merge);
            held.add(replica.get(KEYS, sortKey).orElseThrow());
        }
        assertThat(held).as("%s: every replica's entry", replay).containsOnly(held.getFirst());
        Map<String, Object> merged = fields(AccessKeyValue.decodeKey(id, held.getFirst().value()));
        Map<String, Object> written = fields(put);
        for (String field : merged.keySet()) {
            Object expected = latest.containsKey(field) ? latest.get(field).value() : written.get(field);
            assertThat(merged.get(field)).as("%s: %s, as the latest change of it left it", replay, field).isEqualTo(expected);
        }
    }

    /** The key's fields by name, every bucket of {@link #BUCKETS} among them (null: no grant). */
    private static Map<String, Object> fields(AccessKey key) {
        Map<String, Object> fields = new HashMap<>();
        fields.put("secret", key.secretKey());
        fields.put("create-buckets", key.createBuckets());
        Set<String> buckets = new HashSet<>(BUCKETS);
        buckets.addAll(key.buckets().keySet());
        for (String bucket : buckets) {
            fields.put("bucket " + bucket, key.buckets().get(bucket));
        }
        return fields;
    }

    // Random entries

    private static Entry randomEntry(RandomGenerator random) {
        Timestamp timestamp = at(random.nextInt(3), random.nextInt(2));
        if (random.nextInt(6) == 0) {
            return Entry.tombstone(KEYS, SORT_KEY, timestamp);
        }
        Map<String, BucketPermission> granted = new HashMap<>();
        Set<String> revoked = new HashSet<>();
        Map<String, Timestamp> stamps = new HashMap<>();
        for (String bucket : BUCKETS) {
            switch (random.nextInt(3)) {
                case 0 -> granted.put(bucket, new BucketPermission(true, random.nextBoolean(), false));
                case 1 -> revoked.add(bucket);
                default -> {
                    continue;
                }
            }
            if (random.nextBoolean()) {
                stamps.put(bucket, at(random.nextInt(3), random.nextInt(2)));
            }
        }
        AccessKey key = new AccessKey(ID, "secret-" + random.nextInt(2), NOW.plusSeconds(random.nextInt(2)),
                false, granted, random.nextBoolean());
        if (random.nextInt(4) == 0) {
            // As PutAccessKey and the previous release write it: the record alone.
            return Entry.of(KEYS, SORT_KEY, RecordFormat.encodeAccessKey(key), timestamp);
        }
        AccessKeyValue value = new AccessKeyValue(key, maybe(random), maybe(random), maybe(random), stamps, revoked);
        return Entry.of(KEYS, SORT_KEY, value.encode(), timestamp);
    }

    private static Timestamp maybe(RandomGenerator random) {
        return random.nextBoolean() ? null : at(random.nextInt(3), random.nextInt(2));
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
