package dev.hangar.cluster.meta;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.ReplicatedTable;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketNotEmptyException;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.ListedVersion;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.NoSuchBucketException;
import dev.hangar.metadata.NoSuchUploadException;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.Precondition;
import dev.hangar.metadata.PreconditionFailedException;
import dev.hangar.metadata.StoreLocks;
import dev.hangar.metadata.StoreStatistics;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.metadata.ObjectLockedException;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.state.CommandRefusedException;
import dev.hangar.metadata.state.MetadataStateMachine;
import dev.hangar.metadata.state.Outcome;
import dev.hangar.metadata.state.Refusal;
import dev.hangar.metadata.rocksdb.RecordFormat;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A {@link MetadataStore} whose records live in one leaderless {@link ReplicatedTable}: any node
 * serves any request, and a node cut off from the quorum fails with {@link
 * dev.hangar.metadata.MetadataUnavailableException} instead of answering stale.
 *
 * <p><b>Layout.</b> One table entry per record, keyed as {@link MetaKeys} describes, so that every
 * listing is a range of one partition key and so one replica set. An object key's whole version
 * stack is one entry ({@link VersionStack}), so every mutation of a key reads and rewrites one
 * entry. Values use the single-node store's record format ({@link RecordFormat}).
 *
 * <p><b>Mutations.</b> Under this node's lock of the key ({@link StoreLocks}), a mutation reads the
 * entry at the read quorum, computes the new value as {@code RocksDbMetadataStore} would, and
 * writes it at the write quorum with a fresh timestamp of the table's clock, which the read moved
 * past the timestamp it saw, so the write wins over what it replaced. Through one node this is as
 * strong as the single-node store: writers are serialised, and of concurrent {@link
 * Precondition.IfAbsent} writers exactly one wins.
 *
 * <p><b>Weaker than the single node, across nodes.</b> Writers of one key through different nodes
 * are not serialised: the table keeps the entry with the greatest hybrid timestamp (last writer
 * wins). So two concurrent conditional writes through different nodes can both succeed, one of two
 * concurrent versions written into a versioned bucket through different nodes can be lost, and an
 * object can be written into a bucket that another node is deleting. The blocks of a write that
 * lost such a race are not queued for reclamation: they stay as orphans. A mutation that spans
 * several entries (completing or aborting an upload, deleting a bucket) writes them one after the
 * other, not atomically; the order is chosen so that a crash in between leaves at worst orphans or
 * leftover records that a retry or a later mutation cleans up, never a block queued that a record
 * still references (an abort never queues blocks that a version of its key references, which
 * covers a completion interrupted before it removed the parts).
 *
 * <p><b>Unavailability.</b> A mutation that misses its quorum throws {@link
 * dev.hangar.metadata.MetadataUnavailableException}, and its outcome is then unknown: the write may
 * have reached fewer replicas (this node's own, for one) and spread later by read repair or
 * anti-entropy. A caller must therefore not free the blocks of a version whose write failed that
 * way; they stay as orphans if the write never takes effect.
 *
 * <p><b>Garbage.</b> The queue of blocks to free is this node's, in a local RocksDB ({@link
 * GarbageQueue}). Blocks a mutation makes unreachable are queued after its quorum write succeeded,
 * not atomically with it: a crash in between leaves them as orphans.
 *
 * <p><b>Whole-store views.</b> {@link #statistics} and {@link #forEachBlockReference} read this
 * node's replica only ({@link LocalReplica}): they cover the whole store only where this node
 * replicates every partition, and may miss writes that reached it late. Statistics are counted by
 * a scan, at most every {@value #STATISTICS_TTL_SECONDS} seconds and then in the background. The block references are not a
 * complete set in a cluster, so a node-local orphan scrub must not delete blocks by them.
 *
 * <p>Table futures are joined: callers run on virtual threads.
 */
@SuppressWarnings("try") // Lock holders are try-with-resources variables that the body never reads.
public final class ReplicatedMetadataStore implements MetadataStore {
    /** The name of the replicated table (TableConfig name) that holds the metadata. */
    public static final String TABLE = "meta";

    /** How long a count of the statistics is served before the replica is scanned again. */
    static final int STATISTICS_TTL_SECONDS = 30;
    private static final Duration STATISTICS_TTL = Duration.ofSeconds(STATISTICS_TTL_SECONDS);
    private static final int MAX_PAGE = 1000;
    /** The configuration kind whose presence means versioning was enabled once (it is never removed). */
    private static final String VERSIONING = "versioning";

    /** How long bucket settings and access keys read from the quorum are reused ({@link SettingsCache}). */
    public static final Duration DEFAULT_SETTINGS_TTL = Duration.ofSeconds(1);
    /** How long a block queued by a mutation waits before it is checked against its key again and freed. */
    public static final Duration DEFAULT_GARBAGE_GRACE = Duration.ofMinutes(1);

    private final ReplicatedTable table;
    private final SettingsCache settings;
    private final Duration garbageGrace;
    private final GarbageQueue garbage;
    private final StoreLocks locks = new StoreLocks();
    private volatile @Nullable CountedStatistics counted;
    private final java.util.concurrent.atomic.AtomicBoolean recounting = new java.util.concurrent.atomic.AtomicBoolean();

    private record CountedStatistics(StoreStatistics statistics, long countedAtNanos) {}

    /**
     * Stores records in {@code table} (not owned: the caller closes it); keeps this node's garbage
     * queue in a local RocksDB in {@code garbageDir} (owned, closed by close()).
     */
    public ReplicatedMetadataStore(ReplicatedTable table, Path garbageDir) {
        this(table, garbageDir, DEFAULT_SETTINGS_TTL, DEFAULT_GARBAGE_GRACE);
    }

    /**
     * As {@link #ReplicatedMetadataStore(ReplicatedTable, Path)}, keeping bucket records, bucket
     * configurations and access keys read from the quorum for {@code settingsTtl} ({@link
     * SettingsCache}; zero: always read them from the quorum), and handing out a block a mutation
     * queued only once {@code garbageGrace} has passed and its key's current versions, read again,
     * do not reference it (see {@link #pendingGarbage}).
     */
    public ReplicatedMetadataStore(ReplicatedTable table, Path garbageDir, Duration settingsTtl, Duration garbageGrace) {
        this.table = Objects.requireNonNull(table, "table");
        this.settings = new SettingsCache(table, settingsTtl);
        this.garbageGrace = garbageGrace;
        this.garbage = GarbageQueue.open(garbageDir);
    }

    // Commands

    /**
     * Applies a command through this store's own mutations (to be replaced by {@link
     * dev.hangar.metadata.state.MetadataStateMachine} over replicated records): the conditions a
     * command carries — Object Lock, the version lifecycle judged — are checked under this node's
     * lock of the key, so against writers through this node only.
     */
    @Override
    @SuppressWarnings("unchecked") // Each command's result type is fixed by its record's declaration.
    public <R> Outcome<R> apply(MetadataCommand<R> command) {
        try {
            Object result = switch (command) {
                case MetadataCommand.CreateBucket create -> createBucket(create.record());
                case MetadataCommand.DeleteBucket delete -> deleteBucket(delete.bucket());
                case MetadataCommand.PutBucketConfig put -> {
                    putBucketConfig(put.bucket(), put.kind(), put.document());
                    yield true;
                }
                case MetadataCommand.DeleteBucketConfig delete -> deleteBucketConfig(delete.bucket(), delete.kind());
                case MetadataCommand.PutVersion put -> putVersion(put);
                case MetadataCommand.DeleteVersion delete -> deleteVersion(delete);
                case MetadataCommand.ChangeVersion change -> updateVersion(change.bucket(), change.key(),
                        change.versionId(), version -> MetadataStateMachine.changed(version, change.change()));
                case MetadataCommand.CreateUpload create -> {
                    createUpload(create.upload());
                    yield true;
                }
                case MetadataCommand.PutPart put -> {
                    putPart(put.upload(), put.part());
                    yield true;
                }
                case MetadataCommand.CompleteUpload complete ->
                        completeUpload(complete.upload(), complete.version(), complete.precondition());
                case MetadataCommand.AbortUpload abort -> abortUpload(abort.upload());
                case MetadataCommand.PutAccessKey put -> {
                    putAccessKey(put.key());
                    yield true;
                }
                case MetadataCommand.DeleteAccessKey delete -> deleteAccessKey(delete.accessKeyId());
                case MetadataCommand.ChangeAccessKey change -> updateAccessKey(change.accessKeyId(),
                        key -> MetadataStateMachine.changed(key, change.change()));
            };
            return Outcome.done((R) result);
        } catch (NoSuchBucketException e) {
            return Outcome.refused(Refusal.NO_SUCH_BUCKET, e.getMessage());
        } catch (BucketNotEmptyException e) {
            return Outcome.refused(Refusal.BUCKET_NOT_EMPTY, e.getMessage());
        } catch (PreconditionFailedException e) {
            return Outcome.refused(Refusal.PRECONDITION_FAILED, e.getMessage());
        } catch (NoSuchUploadException e) {
            return Outcome.refused(Refusal.NO_SUCH_UPLOAD, e.getMessage());
        } catch (ObjectLockedException e) {
            return Outcome.refused(Refusal.OBJECT_LOCKED, e.getMessage());
        } catch (CommandRefusedException e) {
            return Outcome.refused(e.reason(), e.getMessage());
        }
    }

    private Optional<ObjectVersion> putVersion(MetadataCommand.PutVersion put)
            throws NoSuchBucketException, PreconditionFailedException {
        ObjectVersion version = put.version();
        if (!put.replacing().checks() || !version.versionId().equals(ObjectVersion.NULL_VERSION)) {
            return putObject(version, put.precondition());
        }
        try (var held = locks.key(version.bucket(), version.key())) {
            Optional<ObjectVersion> replaced = getVersion(version.bucket(), version.key(), ObjectVersion.NULL_VERSION);
            if (replaced.isPresent() && !MetadataStateMachine.removable(replaced.get(), put.replacing())) {
                throw new ObjectLockedException("the \"null\" version of " + version.key() + " is protected by Object Lock");
            }
            return putObject(version, put.precondition());
        }
    }

    private Optional<ObjectVersion> deleteVersion(MetadataCommand.DeleteVersion delete) {
        if (!delete.lock().checks() && delete.expected() == null) {
            return deleteVersion(delete.bucket(), delete.key(), delete.versionId());
        }
        try (var held = locks.key(delete.bucket(), delete.key())) {
            Optional<ObjectVersion> found = getVersion(delete.bucket(), delete.key(), delete.versionId());
            if (found.isEmpty() || (delete.expected() != null && !delete.expected().matches(found.get()))) {
                return Optional.empty();
            }
            if (!MetadataStateMachine.removable(found.get(), delete.lock())) {
                throw new ObjectLockedException(
                        "version " + delete.versionId() + " of " + delete.key() + " is protected by Object Lock");
            }
            return deleteVersion(delete.bucket(), delete.key(), delete.versionId());
        }
    }

    // Buckets

    @Override
    public Optional<BucketRecord> getBucket(String name) {
        try (var held = locks.open()) {
            return readBucket(name);
        }
    }

    /** Clears configurations a deletion interrupted by a crash may have left, before the bucket exists again. */
    @Override
    public boolean createBucket(BucketRecord bucket) {
        try (var held = locks.bucket(bucket.name())) {
            if (readBucketFresh(bucket.name()).isPresent()) {
                return false;
            }
            deleteAll(MetaKeys.configs(bucket.name()), "clear old configurations of bucket " + bucket.name());
            write(MetaKeys.buckets(), MetaKeys.bucket(bucket.name()), RecordFormat.encodeBucket(bucket),
                    "create bucket " + bucket.name());
            return true;
        }
    }

    /**
     * Deletes the bucket record first, then its configurations: a crash in between leaves
     * configurations that {@link #createBucket} clears, never a bucket that lost its own.
     */
    @Override
    public boolean deleteBucket(String name) throws BucketNotEmptyException {
        try (var held = locks.bucket(name)) {
            if (readBucketFresh(name).isEmpty()) {
                return false;
            }
            if (anyLive(MetaKeys.objects(name), "check bucket " + name + " for objects")) {
                throw new BucketNotEmptyException("bucket " + name + " holds object versions");
            }
            if (anyLive(MetaKeys.uploads(name), "check bucket " + name + " for uploads")) {
                throw new BucketNotEmptyException("bucket " + name + " holds multipart uploads");
            }
            delete(MetaKeys.buckets(), MetaKeys.bucket(name), "delete bucket " + name);
            deleteAll(MetaKeys.configs(name), "delete configurations of bucket " + name);
            return true;
        }
    }

    @Override
    public List<BucketRecord> listBuckets() {
        try (var held = locks.open()) {
            List<BucketRecord> buckets = new ArrayList<>();
            RangeCursor cursor = new RangeCursor(table, MetaKeys.buckets(), new byte[0], MAX_PAGE, "list buckets");
            for (Entry entry = cursor.next(); entry != null; entry = cursor.next()) {
                byte[] name = entry.sortKey();
                buckets.add(RecordFormat.decodeBucket(MetaKeys.string(name, 0, name.length), entry.value()));
            }
            return buckets;
        }
    }

    // Objects and their versions

    @Override
    public Optional<ObjectVersion> getObject(String bucket, String key) {
        try (var held = locks.open()) {
            return readStack(bucket, key).current();
        }
    }

    @Override
    public Optional<ObjectVersion> putObject(ObjectVersion version) throws NoSuchBucketException {
        try {
            return putObject(version, new Precondition.None());
        } catch (PreconditionFailedException impossible) {
            throw new IllegalStateException("no precondition, yet it failed", impossible);
        }
    }

    @Override
    public Optional<ObjectVersion> putObject(ObjectVersion version, Precondition precondition)
            throws NoSuchBucketException, PreconditionFailedException {
        String bucket = version.bucket();
        String key = version.key();
        byte[] sortKey = MetaKeys.writableObjectKey(key);
        try (var held = locks.key(bucket, key)) {
            if (precondition instanceof Precondition.None && version.versionId().equals(ObjectVersion.NULL_VERSION)
                    && neverVersioned(bucket)) {
                return overwrite(bucket, key, sortKey, stack -> stack.withNewest(version), "write object " + key);
            }
            // Both reads in one round: the bucket check costs no extra latency.
            CompletableFuture<Optional<Entry>> bucketRead = settings.get(MetaKeys.buckets(), MetaKeys.bucket(bucket));
            CompletableFuture<Optional<Entry>> stackRead = table.get(MetaKeys.objects(bucket), sortKey);
            if (Replies.join(bucketRead, "read bucket " + bucket).isEmpty()) {
                throw new NoSuchBucketException("bucket " + bucket + " does not exist");
            }
            VersionStack stack = stackOf(bucket, key, Replies.join(stackRead, "read object " + key));
            VersionStack.Change change = stageNewest(stack, version, precondition);
            writeStack(bucket, key, change.after());
            queueOwned(change.unreferenced(), bucket, key);
            return change.removed();
        }
    }

    @Override
    public Optional<ObjectVersion> getVersion(String bucket, String key, String versionId) {
        try (var held = locks.open()) {
            VersionStack stack = readStack(bucket, key);
            int index = stack.indexOf(versionId);
            return index < 0 ? Optional.empty() : Optional.of(stack.versions().get(index));
        }
    }

    @Override
    public Optional<ObjectVersion> deleteObject(String bucket, String key) {
        return deleteVersion(bucket, key, ObjectVersion.NULL_VERSION);
    }

    @Override
    public Optional<ObjectVersion> deleteVersion(String bucket, String key, String versionId) {
        try (var held = locks.key(bucket, key)) {
            if (versionId.equals(ObjectVersion.NULL_VERSION) && key.indexOf('\0') < 0 && existsNeverVersioned(bucket)) {
                return overwrite(bucket, key, MetaKeys.writableObjectKey(key),
                        stack -> stack.without(ObjectVersion.NULL_VERSION)
                                .orElse(new VersionStack.Change(stack, Optional.empty(), Set.of())),
                        "delete object " + key);
            }
            Optional<VersionStack.Change> change = readStack(bucket, key).without(versionId);
            if (change.isEmpty()) {
                return Optional.empty();
            }
            writeStack(bucket, key, change.get().after());
            queueOwned(change.get().unreferenced(), bucket, key);
            return change.get().removed();
        }
    }

    /** Changes a version under this node's key lock; null from {@code change} refuses (nothing written). */
    private Optional<ObjectVersion> updateVersion(
            String bucket, String key, String versionId, UnaryOperator<ObjectVersion> change) {
        try (var held = locks.key(bucket, key)) {
            VersionStack stack = readStack(bucket, key);
            int index = stack.indexOf(versionId);
            if (index < 0) {
                return Optional.empty();
            }
            ObjectVersion before = stack.versions().get(index);
            ObjectVersion after = change.apply(before);
            if (after == null) {
                throw new ObjectLockedException("the retention of version " + versionId + " of " + key
                        + " forbids this change");
            }
            requireMetadataChangeOnly(before, after);
            writeStack(bucket, key, stack.with(index, after));
            return Optional.of(after);
        }
    }

    @Override
    public ObjectListing listObjects(String bucket, ListQuery query) {
        try (var held = locks.open()) {
            List<ObjectVersion> entries = new ArrayList<>();
            List<String> commonPrefixes = new ArrayList<>();
            if (query.maxKeys() == 0) {
                return new ObjectListing(entries, commonPrefixes, false, null);
            }
            byte[] start = query.after() == null
                    ? new byte[0]
                    : after(MetaKeys.utf8(query.after()),
                            Rollup.isCommonPrefix(query.after(), query.prefix(), query.delimiter()));
            Rollup rollup = rollup(MetaKeys.objects(bucket), start, query.prefix(), query.delimiter(),
                    query.maxKeys(), sortKey -> sortKey.length,
                    // A key whose current version is a delete marker is not listed, nor rolled up.
                    entry -> currentOf(bucket, entry).filter(current -> !current.isDeleteMarker()).isPresent(),
                    "list objects of " + bucket);
            String last = null;
            boolean truncated = false;
            for (Rollup.Item item = rollup.next(); item != null; item = rollup.next()) {
                if (entries.size() + commonPrefixes.size() == query.maxKeys()) {
                    truncated = true;
                    break;
                }
                switch (item) {
                    case Rollup.Item.Listed listed -> {
                        ObjectVersion current = currentOf(bucket, listed.entry()).orElseThrow();
                        entries.add(current);
                        last = current.key();
                    }
                    case Rollup.Item.CommonPrefix common -> {
                        commonPrefixes.add(common.prefix());
                        last = common.prefix();
                    }
                }
            }
            return new ObjectListing(entries, commonPrefixes, truncated, truncated ? last : null);
        }
    }

    @Override
    public VersionListing listVersions(String bucket, VersionQuery query) {
        try (var held = locks.open()) {
            List<ListedVersion> versions = new ArrayList<>();
            List<String> commonPrefixes = new ArrayList<>();
            if (query.maxKeys() == 0) {
                return new VersionListing(versions, commonPrefixes, false, null, null);
            }
            String keyMarker = query.keyMarker();
            String versionIdMarker = query.versionIdMarker();
            byte[] start;
            if (keyMarker == null) {
                // S3 ignores a version id marker without a key marker.
                start = new byte[0];
                versionIdMarker = null;
            } else if (Rollup.isCommonPrefix(keyMarker, query.prefix(), query.delimiter())) {
                start = after(MetaKeys.utf8(keyMarker), true);
                versionIdMarker = null;
            } else if (versionIdMarker == null) {
                start = MetaKeys.justAfter(MetaKeys.utf8(keyMarker));
            } else {
                // The marker key itself is read again, to resume after its marker version.
                start = MetaKeys.utf8(keyMarker);
            }
            Rollup rollup = rollup(MetaKeys.objects(bucket), start, query.prefix(), query.delimiter(),
                    query.maxKeys(), sortKey -> sortKey.length, entry -> true, "list versions of " + bucket);
            String nextKeyMarker = null;
            String nextVersionIdMarker = null;
            boolean truncated = false;
            scan:
            for (Rollup.Item item = rollup.next(); item != null; item = rollup.next()) {
                switch (item) {
                    case Rollup.Item.Listed listed -> {
                        VersionStack stack = stackOf(bucket, listed.entry());
                        int from = 0;
                        String key = MetaKeys.string(listed.entry().sortKey(), 0, listed.entry().sortKey().length);
                        if (versionIdMarker != null && key.equals(keyMarker)) {
                            int marker = stack.indexOf(versionIdMarker);
                            // A marker version deleted since the previous page: resume after its key.
                            from = marker < 0 ? stack.versions().size() : marker + 1;
                        }
                        for (int i = from; i < stack.versions().size(); i++) {
                            if (versions.size() + commonPrefixes.size() == query.maxKeys()) {
                                truncated = true;
                                break scan;
                            }
                            ObjectVersion version = stack.versions().get(i);
                            versions.add(new ListedVersion(version, i == 0));
                            nextKeyMarker = key;
                            nextVersionIdMarker = version.versionId();
                        }
                    }
                    case Rollup.Item.CommonPrefix common -> {
                        if (versions.size() + commonPrefixes.size() == query.maxKeys()) {
                            truncated = true;
                            break scan;
                        }
                        commonPrefixes.add(common.prefix());
                        nextKeyMarker = common.prefix();
                        nextVersionIdMarker = null;
                    }
                }
            }
            return truncated
                    ? new VersionListing(versions, commonPrefixes, true, nextKeyMarker, nextVersionIdMarker)
                    : new VersionListing(versions, commonPrefixes, false, null, null);
        }
    }

    // Multipart uploads

    @Override
    public void createUpload(MultipartUpload upload) throws NoSuchBucketException {
        byte[] sortKey = MetaKeys.upload(upload.key(), upload.uploadId());
        try (var held = locks.key(upload.bucket(), upload.key())) {
            if (readBucket(upload.bucket()).isEmpty()) {
                throw new NoSuchBucketException("bucket " + upload.bucket() + " does not exist");
            }
            write(MetaKeys.uploads(upload.bucket()), sortKey, RecordFormat.encodeUpload(upload),
                    "create upload " + upload.uploadId());
        }
    }

    @Override
    public Optional<MultipartUpload> getUpload(String bucket, String key, String uploadId) {
        try (var held = locks.open()) {
            return readUpload(bucket, key, uploadId);
        }
    }

    @Override
    public void putPart(MultipartUpload upload, Part part) throws NoSuchUploadException {
        if (!upload.uploadId().equals(part.uploadId())) {
            throw new IllegalArgumentException("part of upload " + part.uploadId() + " given for " + upload.uploadId());
        }
        byte[] partsKey = MetaKeys.parts(part.uploadId());
        byte[] partKey = MetaKeys.partNumber(part.partNumber());
        try (var held = locks.key(upload.bucket(), upload.key())) {
            CompletableFuture<Optional<Entry>> uploadRead = table.get(
                    MetaKeys.uploads(upload.bucket()), MetaKeys.upload(upload.key(), upload.uploadId()));
            CompletableFuture<Optional<Entry>> previousRead = table.get(partsKey, partKey);
            if (Replies.join(uploadRead, "read upload " + upload.uploadId()).isEmpty()) {
                // The part's blocks were written for an upload that is gone: nobody else will free them.
                queueOwned(idsOf(part.blocks()), upload.bucket(), upload.key());
                throw new NoSuchUploadException("upload " + upload.uploadId() + " does not exist");
            }
            Optional<Entry> previous = Replies.join(previousRead, "read part " + part.partNumber());
            write(partsKey, partKey, RecordFormat.encodePart(part), "store part " + part.partNumber());
            if (previous.isPresent()) {
                Part replaced = RecordFormat.decodePart(part.uploadId(), part.partNumber(), previous.get().value());
                Set<BlockId> unreferenced = idsOf(replaced.blocks());
                unreferenced.removeAll(idsOf(part.blocks()));
                queueOwned(unreferenced, upload.bucket(), upload.key());
            }
        }
    }

    @Override
    public Optional<Part> getPart(String uploadId, int partNumber) {
        try (var held = locks.open()) {
            return Replies.join(table.get(MetaKeys.parts(uploadId), MetaKeys.partNumber(partNumber)),
                            "read part " + partNumber)
                    .map(entry -> RecordFormat.decodePart(uploadId, partNumber, entry.value()));
        }
    }

    @Override
    public PartListing listParts(String uploadId, int afterPartNumber, int maxParts) {
        try (var held = locks.open()) {
            List<Part> parts = new ArrayList<>();
            long first = (long) Math.max(afterPartNumber, 0) + 1;
            if (maxParts <= 0 || first > Integer.MAX_VALUE) {
                return new PartListing(parts, false, 0);
            }
            RangeCursor cursor = new RangeCursor(table, MetaKeys.parts(uploadId), MetaKeys.partNumber((int) first),
                    Math.min(maxParts + 1, MAX_PAGE), "list parts of " + uploadId);
            boolean truncated = false;
            for (Entry entry = cursor.next(); entry != null; entry = cursor.next()) {
                if (parts.size() == maxParts) {
                    truncated = true;
                    break;
                }
                parts.add(RecordFormat.decodePart(uploadId, MetaKeys.partNumber(entry.sortKey()), entry.value()));
            }
            return new PartListing(parts, truncated, truncated ? parts.getLast().partNumber() : 0);
        }
    }

    @Override
    public UploadListing listUploads(
            String bucket,
            String prefix,
            @Nullable String delimiter,
            @Nullable String keyMarker,
            @Nullable String uploadIdMarker,
            int maxUploads) {
        String listedPrefix = prefix == null ? "" : prefix;
        String listedDelimiter = delimiter == null || delimiter.isEmpty() ? null : delimiter;
        try (var held = locks.open()) {
            List<MultipartUpload> uploads = new ArrayList<>();
            List<String> commonPrefixes = new ArrayList<>();
            if (maxUploads <= 0) {
                return new UploadListing(uploads, commonPrefixes, false, null, null);
            }
            byte[] start = uploadsStart(listedPrefix, listedDelimiter, keyMarker, uploadIdMarker);
            Rollup rollup = rollup(MetaKeys.uploads(bucket), start, listedPrefix, listedDelimiter, maxUploads,
                    MetaKeys::uploadKeyEnd, entry -> true, "list uploads of " + bucket);
            String nextKeyMarker = null;
            String nextUploadIdMarker = null;
            boolean truncated = false;
            for (Rollup.Item item = rollup.next(); item != null; item = rollup.next()) {
                if (uploads.size() + commonPrefixes.size() == maxUploads) {
                    truncated = true;
                    break;
                }
                switch (item) {
                    case Rollup.Item.Listed listed -> {
                        byte[] sortKey = listed.entry().sortKey();
                        int keyEnd = MetaKeys.uploadKeyEnd(sortKey);
                        String key = MetaKeys.string(sortKey, 0, keyEnd);
                        String uploadId = MetaKeys.string(sortKey, keyEnd + 1, sortKey.length);
                        uploads.add(RecordFormat.decodeUpload(bucket, key, uploadId, listed.entry().value()));
                        nextKeyMarker = key;
                        nextUploadIdMarker = uploadId;
                    }
                    case Rollup.Item.CommonPrefix common -> {
                        commonPrefixes.add(common.prefix());
                        nextKeyMarker = common.prefix();
                        nextUploadIdMarker = null;
                    }
                }
            }
            return truncated
                    ? new UploadListing(uploads, commonPrefixes, true, nextKeyMarker, nextUploadIdMarker)
                    : new UploadListing(uploads, commonPrefixes, false, null, null);
        }
    }

    /** The first upload sort key a listing may return, following S3's marker rules. */
    private static byte[] uploadsStart(
            String prefix, @Nullable String delimiter, @Nullable String keyMarker, @Nullable String uploadIdMarker) {
        if (keyMarker == null) {
            // S3 ignores an upload id marker without a key marker.
            return new byte[0];
        }
        if (Rollup.isCommonPrefix(keyMarker, prefix, delimiter)) {
            return after(MetaKeys.utf8(keyMarker), true);
        }
        // Markers come from clients: spelled out rather than validated like stored names.
        byte[] uploadsOfMarkerKey = MetaKeys.concat(MetaKeys.utf8(keyMarker), new byte[] {MetaKeys.SEPARATOR});
        if (uploadIdMarker == null) {
            return after(uploadsOfMarkerKey, true);
        }
        return MetaKeys.justAfter(MetaKeys.concat(uploadsOfMarkerKey, MetaKeys.utf8(uploadIdMarker)));
    }

    @Override
    public Optional<ObjectVersion> completeUpload(MultipartUpload upload, ObjectVersion version)
            throws NoSuchUploadException {
        try {
            return completeUpload(upload, version, new Precondition.None());
        } catch (PreconditionFailedException impossible) {
            throw new IllegalStateException("no precondition, yet it failed", impossible);
        }
    }

    /**
     * Writes the version first (the commit point), then removes the parts, then the upload: an
     * interrupted completion leaves an upload that an abort can remove without queuing blocks the
     * version references.
     */
    @Override
    public Optional<ObjectVersion> completeUpload(MultipartUpload upload, ObjectVersion version, Precondition precondition)
            throws NoSuchUploadException, PreconditionFailedException {
        if (!upload.bucket().equals(version.bucket()) || !upload.key().equals(version.key())) {
            throw new IllegalArgumentException("the completed version must have the upload's bucket and key");
        }
        String bucket = upload.bucket();
        String key = upload.key();
        byte[] uploadKey = MetaKeys.upload(key, upload.uploadId());
        try (var held = locks.key(bucket, key)) {
            CompletableFuture<Optional<Entry>> uploadRead = table.get(MetaKeys.uploads(bucket), uploadKey);
            CompletableFuture<Optional<Entry>> stackRead = table.get(MetaKeys.objects(bucket), MetaKeys.objectKey(key));
            if (Replies.join(uploadRead, "read upload " + upload.uploadId()).isEmpty()) {
                throw new NoSuchUploadException("upload " + upload.uploadId() + " does not exist");
            }
            VersionStack stack = stackOf(bucket, key, Replies.join(stackRead, "read object " + key));
            VersionStack.Change change = stageNewest(stack, version, precondition);
            writeStack(bucket, key, change.after());
            Set<BlockId> unreferenced = new LinkedHashSet<>(change.unreferenced());
            Set<BlockId> kept = change.after().referencedIds();
            for (Part part : removeParts(upload.uploadId())) {
                for (BlockRef block : part.blocks()) {
                    if (!kept.contains(block.id())) {
                        unreferenced.add(block.id());
                    }
                }
            }
            delete(MetaKeys.uploads(bucket), uploadKey, "remove upload " + upload.uploadId());
            queueOwned(unreferenced, bucket, key);
            return change.removed();
        }
    }

    /**
     * Removes the parts, then the upload; queues no block that a version of the key references, in
     * case a completion stopped after writing its version.
     */
    @Override
    public boolean abortUpload(MultipartUpload upload) {
        String bucket = upload.bucket();
        String key = upload.key();
        byte[] uploadKey = MetaKeys.upload(key, upload.uploadId());
        try (var held = locks.key(bucket, key)) {
            CompletableFuture<Optional<Entry>> uploadRead = table.get(MetaKeys.uploads(bucket), uploadKey);
            CompletableFuture<Optional<Entry>> stackRead = table.get(MetaKeys.objects(bucket), MetaKeys.objectKey(key));
            if (Replies.join(uploadRead, "read upload " + upload.uploadId()).isEmpty()) {
                // putPart refuses parts of a missing upload, so there are no parts to remove either.
                return false;
            }
            Set<BlockId> kept = stackOf(bucket, key, Replies.join(stackRead, "read object " + key)).referencedIds();
            Set<BlockId> unreferenced = new LinkedHashSet<>();
            for (Part part : removeParts(upload.uploadId())) {
                for (BlockRef block : part.blocks()) {
                    if (!kept.contains(block.id())) {
                        unreferenced.add(block.id());
                    }
                }
            }
            delete(MetaKeys.uploads(bucket), uploadKey, "remove upload " + upload.uploadId());
            queueOwned(unreferenced, bucket, key);
            return true;
        }
    }

    /** Deletes every part of an upload; returns them. */
    private List<Part> removeParts(String uploadId) {
        byte[] partitionKey = MetaKeys.parts(uploadId);
        List<Part> parts = new ArrayList<>();
        RangeCursor cursor = new RangeCursor(table, partitionKey, new byte[0], MAX_PAGE, "read parts of " + uploadId);
        for (Entry entry = cursor.next(); entry != null; entry = cursor.next()) {
            parts.add(RecordFormat.decodePart(uploadId, MetaKeys.partNumber(entry.sortKey()), entry.value()));
        }
        List<CompletableFuture<Entry>> deletes = new ArrayList<>();
        for (Part part : parts) {
            deletes.add(table.delete(partitionKey, MetaKeys.partNumber(part.partNumber())));
        }
        Replies.join(CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new)), "remove parts of " + uploadId);
        return parts;
    }

    // Block reclamation queue

    /** Queues blocks that a mutation of {@code bucket}/{@code key} made unreachable. */
    private void queueOwned(Collection<BlockId> ids, String bucket, String key) {
        garbage.add(ids, new GarbageQueue.Owner(bucket, key), System.currentTimeMillis());
    }

    /**
     * Up to {@code max} queued blocks that may be freed now. Blocks queued by {@link #queueGarbage}
     * (never referenced) come at once. A block a mutation queued comes only once the garbage grace
     * has passed and its key's current versions, read again from the quorum, do not reference it:
     * a concurrent write through another node that reused the block (a copy onto itself, a
     * completion racing an abort) may have won over the mutation that queued it. A block found
     * referenced again leaves the queue. So, unlike the single-node store, the result can be empty
     * while blocks wait out their grace.
     */
    @Override
    public List<BlockId> pendingGarbage(int max) {
        try (var held = locks.open()) {
            long now = System.currentTimeMillis();
            List<BlockId> ready = new ArrayList<>();
            Map<GarbageQueue.Owner, List<BlockId>> toCheck = new LinkedHashMap<>();
            for (GarbageQueue.Queued queued : garbage.pending(max)) {
                if (queued.owner() == null) {
                    ready.add(queued.id());
                } else if (now - queued.queuedAtMillis() >= garbageGrace.toMillis()) {
                    toCheck.computeIfAbsent(queued.owner(), owner -> new ArrayList<>()).add(queued.id());
                }
            }
            Map<GarbageQueue.Owner, CompletableFuture<Optional<Entry>>> reads = new LinkedHashMap<>();
            toCheck.keySet().forEach(owner -> reads.put(owner,
                    table.get(MetaKeys.objects(owner.bucket()), MetaKeys.objectKey(owner.key()))));
            List<BlockId> live = new ArrayList<>();
            for (Map.Entry<GarbageQueue.Owner, List<BlockId>> owned : toCheck.entrySet()) {
                GarbageQueue.Owner owner = owned.getKey();
                Set<BlockId> referenced = stackOf(owner.bucket(), owner.key(),
                        Replies.join(reads.get(owner), "read object " + owner.key())).referencedIds();
                for (BlockId id : owned.getValue()) {
                    (referenced.contains(id) ? live : ready).add(id);
                }
            }
            garbage.remove(live);
            return ready;
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
            garbage.add(ids, null, System.currentTimeMillis());
        }
    }

    // Whole-store views

    /**
     * What this node's replica holds, counted by a scan (see the class). The scan reads the whole
     * replica, so it runs at most every {@value #STATISTICS_TTL_SECONDS} seconds: the first call
     * counts, later ones get the last count and, once it is older than that, start a new count in
     * the background — a metrics scrape never waits for a scan.
     */
    @Override
    public StoreStatistics statistics() {
        try (var held = locks.open()) {
            CountedStatistics last = counted;
            long now = System.nanoTime();
            if (last == null) {
                StoreStatistics statistics = LocalReplica.statistics(table.local());
                counted = new CountedStatistics(statistics, now);
                return statistics;
            }
            if (now - last.countedAtNanos() >= STATISTICS_TTL.toNanos() && recounting.compareAndSet(false, true)) {
                Thread.ofVirtual().name("hangar-meta-statistics").start(this::recount);
            }
            return last.statistics();
        }
    }

    private void recount() {
        try (var held = locks.open()) {
            long now = System.nanoTime();
            counted = new CountedStatistics(LocalReplica.statistics(table.local()), now);
        } catch (RuntimeException e) {
            // Closed meanwhile, or the replica failed: the last count stays until the next try.
        } finally {
            recounting.set(false);
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

    // Bucket configurations

    @Override
    public Optional<byte[]> getBucketConfig(String bucket, String kind) {
        try (var held = locks.open()) {
            return Replies.join(settings.get(MetaKeys.configs(bucket), MetaKeys.configKind(kind)),
                            "read configuration " + kind + " of " + bucket)
                    .map(entry -> RecordFormat.decodeBucketConfig(entry.value()));
        }
    }

    @Override
    public void putBucketConfig(String bucket, String kind, byte[] document) throws NoSuchBucketException {
        byte[] sortKey = MetaKeys.configKind(kind);
        try (var held = locks.key(bucket, kind)) {
            if (readBucket(bucket).isEmpty()) {
                throw new NoSuchBucketException("bucket " + bucket + " does not exist");
            }
            write(MetaKeys.configs(bucket), sortKey, RecordFormat.encodeBucketConfig(document),
                    "store configuration " + kind + " of " + bucket);
        }
    }

    @Override
    public boolean deleteBucketConfig(String bucket, String kind) {
        byte[] sortKey = MetaKeys.configKind(kind);
        try (var held = locks.key(bucket, kind)) {
            String what = "delete configuration " + kind + " of " + bucket;
            if (Replies.join(table.get(MetaKeys.configs(bucket), sortKey), what).isEmpty()) {
                return false;
            }
            delete(MetaKeys.configs(bucket), sortKey, what);
            return true;
        }
    }

    // Access keys

    @Override
    public Optional<AccessKey> getAccessKey(String accessKeyId) {
        try (var held = locks.open()) {
            return readAccessKey(accessKeyId);
        }
    }

    @Override
    public void putAccessKey(AccessKey key) {
        try (var held = locks.accessKeys()) {
            write(MetaKeys.accessKeys(), MetaKeys.utf8(key.accessKeyId()), RecordFormat.encodeAccessKey(key),
                    "store access key " + key.accessKeyId());
        }
    }

    @Override
    public List<AccessKey> listAccessKeys() {
        try (var held = locks.open()) {
            List<AccessKey> keys = new ArrayList<>();
            RangeCursor cursor = new RangeCursor(table, MetaKeys.accessKeys(), new byte[0], MAX_PAGE, "list access keys");
            for (Entry entry = cursor.next(); entry != null; entry = cursor.next()) {
                byte[] id = entry.sortKey();
                keys.add(RecordFormat.decodeAccessKey(MetaKeys.string(id, 0, id.length), entry.value()));
            }
            return keys;
        }
    }

    @Override
    public boolean deleteAccessKey(String accessKeyId) {
        try (var held = locks.accessKeys()) {
            if (readAccessKeyFresh(accessKeyId).isEmpty()) {
                return false;
            }
            delete(MetaKeys.accessKeys(), MetaKeys.utf8(accessKeyId), "delete access key " + accessKeyId);
            return true;
        }
    }

    /** Changes an access key under this node's lock; null from {@code change} refuses (nothing written). */
    private Optional<AccessKey> updateAccessKey(String accessKeyId, UnaryOperator<AccessKey> change) {
        try (var held = locks.accessKeys()) {
            Optional<AccessKey> before = readAccessKeyFresh(accessKeyId);
            if (before.isEmpty()) {
                return before;
            }
            AccessKey after = change.apply(before.get());
            if (after == null) {
                throw new CommandRefusedException(Refusal.CONFLICT,
                        "the secret of access key " + accessKeyId + " was replaced meanwhile");
            }
            if (!after.accessKeyId().equals(accessKeyId)) {
                throw new IllegalArgumentException("an access key update must not change its id");
            }
            write(MetaKeys.accessKeys(), MetaKeys.utf8(accessKeyId), RecordFormat.encodeAccessKey(after),
                    "update access key " + accessKeyId);
            return Optional.of(after);
        }
    }

    /**
     * Waits for running operations, then closes the garbage queue; later calls throw. The table is
     * the caller's and stays open.
     */
    @Override
    public void close() {
        locks.close(garbage::close);
    }

    // Helpers

    private Optional<BucketRecord> readBucket(String name) {
        return Replies.join(settings.get(MetaKeys.buckets(), MetaKeys.bucket(name)), "read bucket " + name)
                .map(entry -> RecordFormat.decodeBucket(name, entry.value()));
    }

    /** The bucket record from the quorum, for the mutations of the bucket itself. */
    private Optional<BucketRecord> readBucketFresh(String name) {
        return Replies.join(table.get(MetaKeys.buckets(), MetaKeys.bucket(name)), "read bucket " + name)
                .map(entry -> RecordFormat.decodeBucket(name, entry.value()));
    }

    private Optional<MultipartUpload> readUpload(String bucket, String key, String uploadId) {
        return Replies.join(table.get(MetaKeys.uploads(bucket), MetaKeys.upload(key, uploadId)),
                        "read upload " + uploadId)
                .map(entry -> RecordFormat.decodeUpload(bucket, key, uploadId, entry.value()));
    }

    private Optional<AccessKey> readAccessKey(String accessKeyId) {
        return Replies.join(settings.get(MetaKeys.accessKeys(), MetaKeys.utf8(accessKeyId)),
                        "read access key " + accessKeyId)
                .map(entry -> RecordFormat.decodeAccessKey(accessKeyId, entry.value()));
    }

    private Optional<AccessKey> readAccessKeyFresh(String accessKeyId) {
        return Replies.join(table.get(MetaKeys.accessKeys(), MetaKeys.utf8(accessKeyId)),
                        "read access key " + accessKeyId)
                .map(entry -> RecordFormat.decodeAccessKey(accessKeyId, entry.value()));
    }

    private VersionStack readStack(String bucket, String key) {
        return stackOf(bucket, key, Replies.join(
                table.get(MetaKeys.objects(bucket), MetaKeys.objectKey(key)), "read object " + key));
    }

    private static VersionStack stackOf(String bucket, String key, Optional<Entry> entry) {
        return entry.map(found -> VersionStack.decode(bucket, key, found.value())).orElse(VersionStack.EMPTY);
    }

    private static VersionStack stackOf(String bucket, Entry entry) {
        byte[] sortKey = entry.sortKey();
        return VersionStack.decode(bucket, MetaKeys.string(sortKey, 0, sortKey.length), entry.value());
    }

    private static Optional<ObjectVersion> currentOf(String bucket, Entry entry) {
        byte[] sortKey = entry.sortKey();
        return VersionStack.decodeCurrent(bucket, MetaKeys.string(sortKey, 0, sortKey.length), entry.value());
    }

    /** The new stack with {@code version} on top, if the current version meets the precondition. */
    private static VersionStack.Change stageNewest(VersionStack stack, ObjectVersion version, Precondition precondition)
            throws PreconditionFailedException {
        if (!precondition.isMetBy(stack.current().orElse(null))) {
            throw new PreconditionFailedException(
                    "precondition " + precondition + " not met by the current version of " + version.key());
        }
        return stack.withNewest(version);
    }

    /**
     * Whether the bucket exists and never had versioning enabled, so that each of its keys holds at
     * most its {@code "null"} version and a write can replace the key's stack without reading it.
     * Both come from the settings cache: usually no round at all.
     *
     * @throws NoSuchBucketException if the bucket does not exist
     */
    private boolean neverVersioned(String bucket) throws NoSuchBucketException {
        CompletableFuture<Optional<Entry>> bucketRead = settings.get(MetaKeys.buckets(), MetaKeys.bucket(bucket));
        CompletableFuture<Optional<Entry>> versioningRead =
                settings.get(MetaKeys.configs(bucket), MetaKeys.configKind(VERSIONING));
        if (Replies.join(bucketRead, "read bucket " + bucket).isEmpty()) {
            throw new NoSuchBucketException("bucket " + bucket + " does not exist");
        }
        return Replies.join(versioningRead, "read versioning of " + bucket).isEmpty();
    }

    private boolean existsNeverVersioned(String bucket) {
        try {
            return neverVersioned(bucket);
        } catch (NoSuchBucketException absent) {
            return false;
        }
    }

    /**
     * Applies {@code change} to a key's stack in one round instead of two: writes what the change
     * gives for a stack holding at most a "null" version — which is what keys of a never-versioned
     * bucket hold — without reading the stack first, and learns from the replicas' answers what it
     * replaced. Should that be a stack with other versions after all (versions written without
     * versioning configured, or through another node while enabling versioning propagates), it
     * writes the stack the change gives for what was really there, in a second round, before
     * returning; readers may miss those versions in between.
     */
    private Optional<ObjectVersion> overwrite(String bucket, String key, byte[] sortKey,
            java.util.function.Function<VersionStack, VersionStack.Change> change, String what) {
        byte[] partitionKey = MetaKeys.objects(bucket);
        VersionStack guess = change.apply(VersionStack.EMPTY).after();
        ReplicatedTable.Swapped swapped = Replies.join(table.swap(entryOf(partitionKey, sortKey, guess)), what);
        VersionStack before = swapped.previous()
                .filter(replaced -> replaced.timestamp().compareTo(swapped.written().timestamp()) < 0)
                .filter(replaced -> !replaced.isTombstone())
                .map(replaced -> VersionStack.decode(bucket, key, replaced.value()))
                .orElse(VersionStack.EMPTY);
        boolean onlyNull = before.versions().stream()
                .allMatch(stored -> stored.versionId().equals(ObjectVersion.NULL_VERSION));
        if (onlyNull) {
            VersionStack.Change done = before.overwrittenBy(guess);
            queueOwned(done.unreferenced(), bucket, key);
            return done.removed();
        }
        VersionStack.Change right = change.apply(before);
        writeStack(bucket, key, right.after());
        queueOwned(right.unreferenced(), bucket, key);
        return right.removed();
    }

    private Entry entryOf(byte[] partitionKey, byte[] sortKey, VersionStack stack) {
        return stack.isEmpty()
                ? Entry.tombstone(partitionKey, sortKey, table.clock().now())
                : Entry.of(partitionKey, sortKey, stack.encode(), table.clock().now());
    }

    /** Writes the stack, or a tombstone once the key has no version left. */
    private void writeStack(String bucket, String key, VersionStack stack) {
        byte[] partitionKey = MetaKeys.objects(bucket);
        byte[] sortKey = MetaKeys.objectKey(key);
        if (stack.isEmpty()) {
            delete(partitionKey, sortKey, "delete object " + key);
        } else {
            write(partitionKey, sortKey, stack.encode(), "write object " + key);
        }
    }

    // The cached copy goes before the write (no read during it caches the old value for long) and
    // again after it (one that did is dropped).
    private void write(byte[] partitionKey, byte[] sortKey, byte[] value, String what) {
        settings.forget(partitionKey, sortKey);
        try {
            Replies.join(table.put(partitionKey, sortKey, value), what);
        } finally {
            settings.forget(partitionKey, sortKey);
        }
    }

    private void delete(byte[] partitionKey, byte[] sortKey, String what) {
        settings.forget(partitionKey, sortKey);
        try {
            Replies.join(table.delete(partitionKey, sortKey), what);
        } finally {
            settings.forget(partitionKey, sortKey);
        }
    }

    /** Writes a tombstone over every live entry of a partition key. */
    private void deleteAll(byte[] partitionKey, String what) {
        RangeCursor cursor = new RangeCursor(table, partitionKey, new byte[0], MAX_PAGE, what);
        List<CompletableFuture<Entry>> deletes = new ArrayList<>();
        for (Entry entry = cursor.next(); entry != null; entry = cursor.next()) {
            settings.forget(partitionKey, entry.sortKey());
            deletes.add(table.delete(partitionKey, entry.sortKey()));
        }
        try {
            Replies.join(CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new)), what);
        } finally {
            // Cached absences of the deleted records are as right as before; copies read meanwhile are not.
            settings.forgetAll();
        }
    }

    private boolean anyLive(byte[] partitionKey, String what) {
        return new RangeCursor(table, partitionKey, new byte[0], 16, what).next() != null;
    }

    /** A listing over one partition key from {@code start}, or from the prefix if that is later. */
    private Rollup rollup(byte[] partitionKey, byte[] start, String prefix, @Nullable String delimiter, int maxItems,
            Rollup.NameEnd nameEnd, Predicate<Entry> listed, String what) {
        byte[] prefixBytes = MetaKeys.utf8(prefix);
        RangeCursor cursor = new RangeCursor(
                table, partitionKey, MetaKeys.max(prefixBytes, start), Math.min(maxItems + 1, MAX_PAGE), what);
        return new Rollup(cursor, prefixBytes, delimiter == null ? null : MetaKeys.utf8(delimiter), nameEnd, listed);
    }

    /**
     * The first sort key after a marker, exclusive: past everything under it when it is a common
     * prefix (keys are UTF-8, so it has a byte below 0xFF to increment), else just after it.
     */
    private static byte[] after(byte[] marker, boolean isCommonPrefix) {
        byte[] past = isCommonPrefix ? MetaKeys.pastPrefix(marker) : MetaKeys.justAfter(marker);
        return past == null ? MetaKeys.justAfter(marker) : past;
    }

    private static Set<BlockId> idsOf(List<BlockRef> blocks) {
        Set<BlockId> ids = new LinkedHashSet<>();
        blocks.forEach(block -> ids.add(block.id()));
        return ids;
    }

    private static void requireMetadataChangeOnly(ObjectVersion before, ObjectVersion after) {
        if (!before.bucket().equals(after.bucket())
                || !before.key().equals(after.key())
                || !before.versionId().equals(after.versionId())) {
            throw new IllegalArgumentException("a version update must not change the bucket, key or version id");
        }
        if (!before.content().equals(after.content())
                || before.size() != after.size()
                || !before.etag().equals(after.etag())
                || !Objects.equals(before.checksum(), after.checksum())
                || !before.partSizes().equals(after.partSizes())) {
            throw new IllegalArgumentException(
                    "a version update changes metadata only, not the content, size, ETag, checksum or part sizes");
        }
    }
}
