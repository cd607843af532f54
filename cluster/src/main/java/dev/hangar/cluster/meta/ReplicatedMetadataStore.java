package dev.hangar.cluster.meta;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.MergeRule;
import dev.hangar.cluster.table.ReplicatedTable;
import dev.hangar.cluster.table.Timestamp;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.MetadataUnavailableException;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.StoreLocks;
import dev.hangar.metadata.StoreStatistics;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.listing.ByteKeys;
import dev.hangar.metadata.rocksdb.RecordFormat;
import dev.hangar.metadata.state.MetadataStateMachine;
import dev.hangar.metadata.state.Outcome;
import dev.hangar.metadata.state.Refusal;
import java.nio.file.Path;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.LinkedHashMap;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A {@link MetadataStore} whose records live in one leaderless {@link ReplicatedTable}: any node
 * serves any request, and a node cut off from the quorum fails with {@link
 * dev.hangar.metadata.MetadataUnavailableException} instead of answering stale.
 *
 * <p><b>Commands.</b> Every mutation is a command applied by {@link MetadataStateMachine}, the one
 * place the S3 rules are written, to a {@link ReplicatedState}: its reads are quorum reads (bucket
 * settings from the {@link SettingsCache}), its writes are buffered and, once the state machine is
 * done, sent as one multi-entry write ({@link ReplicatedTable#putAll}: one call per partition key,
 * partition keys in parallel). A refused command writes nothing. A {@code "null"} version written
 * or deleted in a bucket that never had versioning configured takes one round instead of two
 * ({@link BlindWrite}).
 *
 * <p><b>Layout.</b> One entry per bucket, configuration, upload, part, access key and service
 * configuration ({@link MetaKeys}), and per object version ({@link ObjectSlots}): a version written is one entry and its
 * index, never a rewrite of the key's other versions, so a write costs the same whatever the key's
 * history. Version entries merge by {@link MetadataMergeRule} (higher order wins; a deletion is
 * final; two copies of one version field by field), access keys field by field, everything else by
 * last writer wins. Records use the single-node store's format ({@link
 * RecordFormat}). Keys the previous release wrote as one stack entry are read as such and migrated
 * by their first mutation ({@link LegacyStack}).
 *
 * <p><b>Exact through one node, racing across nodes.</b> Commands through this node are serialised
 * per key ({@link StoreLocks}), and the state machine checks preconditions and Object Lock against
 * what it read; through one node this is as strong as the single-node store. Commands through
 * different nodes are not serialised: each checks against its own quorum read, so two conditional
 * writes ({@code If-None-Match}) through two nodes can both succeed, a legal hold set through one
 * node while another deletes the version can be lost with the version, and of two changes of one
 * field the later wins. What merges survives any race: versions written concurrently through
 * different nodes are all kept, changes of different fields of one version (tags, hold, retention,
 * ACL) or of one access key (each bucket's grant, secret, create-buckets) are all kept, and a
 * deleted version stays deleted. A
 * command whose entries span several partition keys (completing an upload, deleting a bucket) is
 * not atomic across them: a crash in the middle can leave some written, which a retry or the
 * garbage check below copes with. A bucket's deletion and a write into the bucket through another
 * node are kept from both succeeding ({@link BucketDeletion}), at one more round for the write.
 *
 * <p><b>Unavailability.</b> A command that misses its quorum throws {@link
 * dev.hangar.metadata.MetadataUnavailableException}, and its outcome is then unknown: the write may
 * have reached fewer replicas and spread later by read repair or anti-entropy. A caller must
 * therefore not free the blocks of a version whose write failed that way.
 *
 * <p><b>Garbage.</b> This node's queue of blocks to free ({@link GarbageQueue}) is local; blocks a
 * command makes unreachable are queued after its write succeeded (a crash in between leaves
 * orphans), and so are those of every version this node's replica sees displaced by a newer one
 * in the slot ({@link DisplacedVersions}): overwrites racing through different nodes leave no
 * orphan. Queued blocks are handed out only after a grace and a check of their key ({@link
 * GarbageCheck}).
 *
 * <p><b>Whole-store views.</b> {@link #statistics} counts the whole store from quorum reads
 * ({@link QuorumStatistics}), so it is exact for every mutation that completed before it, through
 * whichever node; it reads every entry, so callers that ask often cache it. {@link
 * #forEachBlockReference} reads this node's replica only ({@link LocalReplica}).
 *
 * <p>Table futures are joined: callers run on virtual threads.
 */
@SuppressWarnings("try") // Lock holders are try-with-resources variables that the body never reads.
public final class ReplicatedMetadataStore implements MetadataStore {
    /** The name of the replicated table (TableConfig name) that holds the metadata. */
    public static final String TABLE = "meta";
    /** The merge rule the metadata table and its local replicas must be configured with. */
    public static final MergeRule MERGE_RULE = MetadataMergeRule.INSTANCE;

    /** How long bucket settings and access keys read from the quorum are reused ({@link SettingsCache}). */
    public static final Duration DEFAULT_SETTINGS_TTL = Duration.ofSeconds(1);
    /** How long a block queued by a mutation waits before it is checked against its key again and freed. */
    public static final Duration DEFAULT_GARBAGE_GRACE = Duration.ofMinutes(1);

    private final ReplicatedTable table;
    private final EntrySource quorum;
    private final SettingsCache settings;
    private final SettingsInvalidation.Served invalidation;
    private final GarbageCheck garbage;
    private final CommitWindow commitWindow;
    private final Runnable unwatchDisplaced;
    private final BlindWrite blindWrite;
    private final BucketDeletion deletion;
    private final ObjectListings objectListings;
    private final RecordListings recordListings;
    private final StoreLocks locks = new StoreLocks();

    /**
     * Stores records in {@code table} (not owned: the caller closes it; configured with {@link
     * #MERGE_RULE}); keeps this node's garbage queue in a local RocksDB in {@code garbageDir} (owned,
     * closed by close()).
     */
    public ReplicatedMetadataStore(ReplicatedTable table, Path garbageDir) {
        this(table, garbageDir, DEFAULT_SETTINGS_TTL, DEFAULT_GARBAGE_GRACE);
    }

    /**
     * As {@link #ReplicatedMetadataStore(ReplicatedTable, Path)}, keeping bucket records, bucket
     * configurations, access keys and service configurations read from the quorum for {@code settingsTtl} ({@link
     * SettingsCache}; zero: always read them from the quorum), and handing out a block a mutation
     * queued only once {@code garbageGrace} has passed and its key's versions, read again, do not
     * reference it.
     */
    public ReplicatedMetadataStore(ReplicatedTable table, Path garbageDir, Duration settingsTtl, Duration garbageGrace) {
        this(table, garbageDir, settingsTtl, garbageGrace, SettingsInvalidation.local());
    }

    /** As above, telling the other nodes through {@code invalidation} to drop their copies of the settings it changes. */
    public ReplicatedMetadataStore(ReplicatedTable table, Path garbageDir, Duration settingsTtl, Duration garbageGrace,
            SettingsInvalidation invalidation) {
        this.table = Objects.requireNonNull(table, "table");
        if (table.config().mergeRule() != MERGE_RULE) {
            throw new IllegalArgumentException("the metadata table must merge by ReplicatedMetadataStore.MERGE_RULE");
        }
        this.quorum = EntrySource.of(table);
        this.settings = new SettingsCache(quorum, settingsTtl);
        this.invalidation = invalidation.serve(settings);
        this.garbage = new GarbageCheck(GarbageQueue.open(garbageDir), quorum, garbageGrace);
        this.commitWindow = CommitWindow.within(garbageGrace);
        this.unwatchDisplaced = table.local().watchLosers(new DisplacedVersions(garbage));
        this.blindWrite = new BlindWrite(table, settings);
        this.deletion = new BucketDeletion(table, quorum, BucketDeletion.DEFAULT_LEASE);
        this.objectListings = new ObjectListings(quorum);
        this.recordListings = new RecordListings(quorum);
    }

    // Commands

    /**
     * Applies the command with {@link MetadataStateMachine} under this node's locks of the command
     * ({@link StoreLocks#forCommand}): blindly if {@link BlindWrite} may, else on the state read
     * from the quorum, writing what it wrote if it was done, and queuing the blocks it freed once
     * that write succeeded (a refusal's too). A bucket's deletion, and a write that adds to a
     * bucket, take the further steps of {@link BucketDeletion}.
     */
    @Override
    @SuppressWarnings("unchecked") // A DeleteBucket's result is a Boolean.
    public <R> Outcome<R> apply(MetadataCommand<R> command) {
        try (var held = locks.forCommand(command)) {
            if (command instanceof MetadataCommand.DeleteBucket delete) {
                return (Outcome<R>) deleteBucket(delete);
            }
            GarbageQueue.Owner owner = ownerOf(command);
            Outcome<R> outcome;
            List<Entry> written;
            List<BlockId> freed = new ArrayList<>();
            Optional<BlindWrite.Applied<R>> blind = blindWrite.apply(command);
            if (blind.isPresent()) {
                outcome = blind.get().outcome();
                written = blind.get().written();
                freed.addAll(blind.get().garbage());
            } else {
                long readFrom = System.nanoTime();
                long stamp = VersionValue.stamp(table.clock().now());
                ReplicatedState state = new ReplicatedState(quorum, settings, changesSettings(command));
                outcome = MetadataStateMachine.apply(command, stamp, state);
                written = List.of();
                if (outcome instanceof Outcome.Done<R>) {
                    commitWindow.require(readFrom, command);
                    written = state.entries(table.clock().now());
                    write(written, command);
                }
                freed.addAll(state.garbage());
            }
            garbage.add(freed, owner);
            String bucket = BucketDeletion.addedTo(command);
            if (bucket != null && outcome instanceof Outcome.Done<R> && !written.isEmpty()
                    && !deletion.survives(bucket)) {
                return withdraw(bucket, written, owner);
            }
            return outcome;
        }
    }

    /**
     * Deletes a bucket as {@link BucketDeletion} says: its mark first, then the state machine on
     * the quorum's state, then the outcome and the mark's removal in one write.
     */
    private Outcome<Boolean> deleteBucket(MetadataCommand.DeleteBucket command) {
        BucketDeletion.Mark mark = deletion.begin(command.bucket());
        List<Entry> entries;
        Outcome<Boolean> outcome;
        try {
            long readFrom = System.nanoTime();
            ReplicatedState state = new ReplicatedState(quorum, settings, true);
            outcome = MetadataStateMachine.apply(command, VersionValue.stamp(table.clock().now()), state);
            if (outcome instanceof Outcome.Done<Boolean>) {
                commitWindow.require(readFrom, command);
            }
            Timestamp now = table.clock().now();
            entries = new ArrayList<>(outcome instanceof Outcome.Done<Boolean> ? state.entries(now) : List.of());
            entries.add(BucketDeletion.end(mark, now));
        } catch (RuntimeException e) {
            deletion.abandonAfter(mark, e);
            throw e;
        }
        if (!deletion.inTime(mark)) {
            deletion.abandon(mark);
            throw new MetadataUnavailableException("metadata unavailable: the deletion of bucket " + command.bucket()
                    + " took longer than writes into it wait for it; nothing was deleted");
        }
        write(entries, command);
        return outcome;
    }

    /**
     * Undoes a write into a bucket found deleted meanwhile: what it wrote there goes back dead, and
     * the blocks it added are queued (checked against the key before they go, as any).
     */
    private <R> Outcome<R> withdraw(String bucket, List<Entry> written, GarbageQueue.@Nullable Owner owner) {
        settings.forget(MetaKeys.buckets(), MetaKeys.bucket(bucket));
        Replies.join(table.putAll(BucketDeletion.withdrawal(written, table.clock().now())),
                "withdraw a write from deleted bucket " + bucket);
        garbage.add(BucketDeletion.blocksOf(written), owner);
        return Outcome.refused(Refusal.NO_SUCH_BUCKET, "bucket " + bucket + " was deleted meanwhile");
    }

    // The cached copy of a setting goes before the write (no read during it caches the old value
    // for long) and again after it (one that did is dropped).
    private void write(List<Entry> entries, MetadataCommand<?> command) {
        if (entries.isEmpty()) {
            return;
        }
        forgetSettings(entries, false);
        try {
            Replies.join(table.putAll(entries), "apply " + command.getClass().getSimpleName());
        } finally {
            forgetSettings(entries, true);
        }
    }

    /**
     * Drops this node's cached copies of the settings among {@code entries}; after the write, also
     * tells the other nodes to drop theirs ({@link SettingsInvalidation}), whatever the write's
     * outcome: one message per record, or one for the whole partition when several of its records
     * changed (a bucket's configurations deleted with it).
     */
    private void forgetSettings(List<Entry> entries, boolean written) {
        Map<ByteBuffer, List<Entry>> byPartition = new LinkedHashMap<>();
        for (Entry entry : entries) {
            if (SettingsCache.holds(entry.partitionKey())) {
                byPartition.computeIfAbsent(ByteBuffer.wrap(entry.partitionKey()), key -> new ArrayList<>()).add(entry);
            }
        }
        for (List<Entry> changed : byPartition.values()) {
            byte[] partitionKey = changed.getFirst().partitionKey();
            if (!written) {
                changed.forEach(entry -> settings.forget(partitionKey, entry.sortKey()));
            } else if (changed.size() == 1) {
                invalidation.changed(partitionKey, changed.getFirst().sortKey());
            } else {
                invalidation.changedPartition(partitionKey);
            }
        }
    }

    /** Commands that change settings read them from the quorum, not from the cache. */
    private static boolean changesSettings(MetadataCommand<?> command) {
        return switch (command) {
            case MetadataCommand.CreateBucket create -> true;
            case MetadataCommand.DeleteBucket delete -> true;
            case MetadataCommand.PutBucketConfig put -> true;
            case MetadataCommand.DeleteBucketConfig delete -> true;
            case MetadataCommand.PutAccessKey put -> true;
            case MetadataCommand.DeleteAccessKey delete -> true;
            case MetadataCommand.ChangeAccessKey change -> true;
            case MetadataCommand.PutServiceConfig put -> true;
            case MetadataCommand.DeleteServiceConfig delete -> true;
            default -> false;
        };
    }

    /** The key whose versions a command's freed blocks are checked against before they go. */
    private static GarbageQueue.@Nullable Owner ownerOf(MetadataCommand<?> command) {
        return switch (command) {
            case MetadataCommand.PutVersion put -> new GarbageQueue.Owner(put.bucket(), put.version().key());
            case MetadataCommand.DeleteVersion delete -> new GarbageQueue.Owner(delete.bucket(), delete.key());
            case MetadataCommand.ChangeVersion change -> new GarbageQueue.Owner(change.bucket(), change.key());
            case MetadataCommand.PutPart put -> new GarbageQueue.Owner(put.bucket(), put.upload().key());
            case MetadataCommand.CompleteUpload complete -> new GarbageQueue.Owner(complete.bucket(), complete.upload().key());
            case MetadataCommand.AbortUpload abort -> new GarbageQueue.Owner(abort.bucket(), abort.upload().key());
            default -> null;
        };
    }

    // Reads

    @Override
    public Optional<BucketRecord> getBucket(String name) {
        try (var held = locks.open()) {
            return Replies.join(settings.get(MetaKeys.buckets(), MetaKeys.bucket(name)), "read bucket " + name)
                    .map(entry -> RecordFormat.decodeBucket(name, entry.value()));
        }
    }

    @Override
    public List<BucketRecord> listBuckets() {
        try (var held = locks.open()) {
            return recordListings.listBuckets();
        }
    }

    @Override
    public Optional<ObjectVersion> getObject(String bucket, String key) {
        try (var held = locks.open()) {
            return KeyRead.read(quorum, bucket, key, false).newest().map(stored -> stored.version());
        }
    }

    @Override
    public Optional<ObjectVersion> getVersion(String bucket, String key, String versionId) {
        try (var held = locks.open()) {
            return KeyRead.version(quorum, bucket, key, versionId);
        }
    }

    @Override
    public ObjectListing listObjects(String bucket, ListQuery query) {
        try (var held = locks.open()) {
            return objectListings.listObjects(bucket, query);
        }
    }

    @Override
    public VersionListing listVersions(String bucket, VersionQuery query) {
        try (var held = locks.open()) {
            return objectListings.listVersions(bucket, query);
        }
    }

    @Override
    public Optional<MultipartUpload> getUpload(String bucket, String key, String uploadId) {
        try (var held = locks.open()) {
            return Replies.join(quorum.get(MetaKeys.uploads(bucket), MetaKeys.upload(key, uploadId)),
                            "read upload " + uploadId)
                    .map(entry -> RecordFormat.decodeUpload(bucket, key, uploadId, entry.value()));
        }
    }

    @Override
    public Optional<Part> getPart(String uploadId, int partNumber) {
        try (var held = locks.open()) {
            return Replies.join(quorum.get(MetaKeys.parts(uploadId), MetaKeys.partNumber(partNumber)),
                            "read part " + partNumber)
                    .map(entry -> RecordFormat.decodePart(uploadId, partNumber, entry.value()));
        }
    }

    @Override
    public PartListing listParts(String uploadId, int afterPartNumber, int maxParts) {
        try (var held = locks.open()) {
            return recordListings.listParts(uploadId, afterPartNumber, maxParts);
        }
    }

    @Override
    public UploadListing listUploads(String bucket, String prefix, @Nullable String delimiter,
            @Nullable String keyMarker, @Nullable String uploadIdMarker, int maxUploads) {
        try (var held = locks.open()) {
            return recordListings.listUploads(bucket, prefix, delimiter, keyMarker, uploadIdMarker, maxUploads);
        }
    }

    @Override
    public Optional<byte[]> getBucketConfig(String bucket, String kind) {
        try (var held = locks.open()) {
            return Replies.join(settings.get(MetaKeys.configs(bucket), MetaKeys.configKind(kind)),
                            "read configuration " + kind + " of " + bucket)
                    .map(entry -> RecordFormat.decodeBucketConfig(entry.value()));
        }
    }

    @Override
    public Optional<AccessKey> getAccessKey(String accessKeyId) {
        try (var held = locks.open()) {
            return Replies.join(settings.get(MetaKeys.accessKeys(), ByteKeys.utf8(accessKeyId)),
                            "read access key " + accessKeyId)
                    .map(entry -> AccessKeyValue.decodeKey(accessKeyId, entry.value()));
        }
    }

    @Override
    public List<AccessKey> listAccessKeys() {
        try (var held = locks.open()) {
            return recordListings.listAccessKeys();
        }
    }

    /** From the settings cache, as a bucket's configuration: a change through any node drops every node's copy. */
    @Override
    public Optional<byte[]> getServiceConfig(String kind, String name) {
        try (var held = locks.open()) {
            return Replies.join(settings.get(MetaKeys.serviceConfigs(kind), MetaKeys.serviceConfigName(name)),
                            "read service configuration " + kind + " " + name)
                    .map(entry -> RecordFormat.decodeBucketConfig(entry.value()));
        }
    }

    /** From the quorum, as the access keys list: listings are never cached. */
    @Override
    public SortedMap<String, byte[]> listServiceConfigs(String kind) {
        try (var held = locks.open()) {
            return recordListings.listServiceConfigs(kind);
        }
    }

    // Block reclamation queue

    /**
     * Up to {@code max} queued blocks that may be freed now ({@link GarbageCheck}): unlike the
     * single-node store's, the result can be empty while blocks wait out their grace.
     */
    @Override
    public List<BlockId> pendingGarbage(int max) {
        try (var held = locks.open()) {
            return garbage.pending(max);
        }
    }

    @Override
    public void forgetGarbage(Collection<BlockId> ids) {
        try (var held = locks.open()) {
            garbage.remove(ids);
        }
    }

    @Override
    public void queueGarbage(Collection<BlockId> ids) {
        try (var held = locks.open()) {
            garbage.add(ids, null);
        }
    }

    // Whole-store views

    /**
     * The whole store counted from quorum reads ({@link QuorumStatistics}): a read of every entry,
     * exact for what completed before the call.
     */
    @Override
    public StoreStatistics statistics() {
        try (var held = locks.open()) {
            return QuorumStatistics.count(quorum);
        }
    }

    /** The references this node's replica holds; not every reference of a cluster (see the class). */
    @Override
    public void forEachBlockReference(Consumer<? super BlockRef> visitor) {
        Objects.requireNonNull(visitor, "visitor");
        try (var held = locks.open()) {
            LocalReplica.forEachBlockReference(table.local(), visitor);
        }
    }

    /**
     * Waits for running operations, then closes the garbage queue; later calls throw. The table is
     * the caller's and stays open.
     */
    @Override
    public void close() {
        unwatchDisplaced.run();
        invalidation.close();
        locks.close(garbage::close);
    }
}
