package dev.hangar.metadata;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.metadata.command.AccessKeyChange;
import dev.hangar.metadata.command.LockCheck;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.command.VersionChange;
import dev.hangar.metadata.command.VersionMatch;
import dev.hangar.metadata.state.CommandRefusedException;
import dev.hangar.metadata.state.Outcome;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Buckets, object versions, multipart uploads, access keys, and the queue of blocks to free.
 *
 * <p>Every mutation is atomic. When a mutation makes blocks unreachable (an object overwritten or
 * deleted, a part replaced, an upload aborted or completed without some of its parts), their ids
 * are queued for reclamation in the same atomic write, so a crash can never lose track of them;
 * {@link #pendingGarbage} and {@link #forgetGarbage} drain that queue after the blocks are deleted.
 *
 * <p>Methods block: call them off any event loop. Keys and bucket names compare as UTF-8 bytes,
 * which is S3's listing order. Operations on a closed store throw {@link IllegalStateException};
 * failures of the storage itself throw {@link MetadataStorageException}.
 *
 * <h2>Versions</h2>
 *
 * <p>A key has a stack of versions, newest first. Where a version stands is decided by the store
 * when it is written (a later write is always newer), never by its id or its {@code
 * lastModified}. The newest version is the key's <em>current</em> version. A version whose content
 * is {@link ObjectContent.DeleteMarker} is a delete marker: when it is current the key counts as
 * deleted, so {@link #listObjects} does not show it, while {@link #getObject} returns the marker
 * itself (the S3 layer answers 404 with {@code x-amz-delete-marker}).
 *
 * <p>Version ids are the caller's: {@code "null"} ({@link ObjectVersion#NULL_VERSION}) in a bucket
 * whose versioning was never enabled or is suspended, else an id unique among the versions of the
 * key. A key holds at most one {@code "null"} version: writing one replaces the previous one.
 * That is how an unversioned bucket works: every version is {@code "null"}, so each key has one.
 *
 * <p>When a version is removed, its blocks are queued for reclamation except those that another
 * remaining version of the same key, or the version that replaced it, still references.
 *
 * <h2>Keys and conditions</h2>
 *
 * <p>Object keys that mutations take must not contain U+0000 ({@link IllegalArgumentException});
 * S3 clients cannot send one. Conditional writes take a {@link Precondition}, which is checked
 * against the current version under the same lock as the write, so of concurrent writers that all
 * require {@link Precondition.IfAbsent} exactly one succeeds.
 */
public interface MetadataStore extends AutoCloseable {

    /**
     * Applies one mutation atomically and returns its outcome: the one way this store changes. The
     * mutation methods below are shorthands that build a command and turn a refusal into the
     * exception they declare.
     *
     * @throws MetadataUnavailableException if a replicated store cannot reach enough replicas; the
     *     command may or may not take effect later
     */
    <R> Outcome<R> apply(MetadataCommand<R> command);

    // Buckets

    Optional<BucketRecord> getBucket(String name);

    /** Creates the bucket; returns false, changing nothing, if a bucket of that name exists. */
    default boolean createBucket(BucketRecord bucket) {
        return apply(new MetadataCommand.CreateBucket(bucket)).value();
    }

    /**
     * Deletes an empty bucket, and its configurations with it.
     *
     * @throws BucketNotEmptyException if it holds any object version (a delete marker or a
     *     noncurrent version counts, as in S3) or multipart upload
     * @return false if there was no such bucket
     */
    default boolean deleteBucket(String name) throws BucketNotEmptyException {
        try {
            return apply(new MetadataCommand.DeleteBucket(name)).value();
        } catch (CommandRefusedException e) {
            throw new BucketNotEmptyException(e.getMessage());
        }
    }

    /** All buckets by name. */
    List<BucketRecord> listBuckets();

    // Objects and their versions

    /**
     * The current (newest) version of a key: a delete marker if the newest version is one; empty if
     * the key has no version at all.
     */
    Optional<ObjectVersion> getObject(String bucket, String key);

    /**
     * Makes {@code version} the newest, so current, version of its key. If its id is {@code "null"}
     * an existing {@code "null"} version of the key is removed (and its blocks queued, except those
     * that {@code version} or another version of the key references, so a rewrite of the metadata
     * alone keeps its bytes) and returned; versions with other ids are kept. If its id is anything
     * else nothing is removed, and the result is empty. So in an unversioned bucket, where every id
     * is {@code "null"}, this replaces the object and returns the replaced one.
     *
     * <p>A delete marker is put the same way: it becomes current, and the key leaves {@link
     * #listObjects}.
     *
     * @throws NoSuchBucketException if the bucket does not exist
     */
    default Optional<ObjectVersion> putObject(ObjectVersion version) throws NoSuchBucketException {
        try {
            return putObject(version, new Precondition.None());
        } catch (PreconditionFailedException impossible) {
            throw new IllegalStateException("no precondition, yet it failed", impossible);
        }
    }

    /**
     * {@link #putObject(ObjectVersion)} if the current version of the key meets {@code
     * precondition}, checked atomically with the write.
     *
     * @throws NoSuchBucketException if the bucket does not exist (checked first)
     * @throws PreconditionFailedException if the precondition is not met; nothing is written, and
     *     the blocks of {@code version} are not queued: the caller knows whether they are new (then
     *     it queues them with {@link #queueGarbage}) or belong to a stored version
     */
    default Optional<ObjectVersion> putObject(ObjectVersion version, Precondition precondition)
            throws NoSuchBucketException, PreconditionFailedException {
        return putObject(version, precondition, LockCheck.NONE);
    }

    /**
     * {@link #putObject(ObjectVersion, Precondition)} that also refuses to replace a {@code "null"}
     * version that {@code replacing} finds locked.
     *
     * @throws ObjectLockedException if Object Lock protects the {@code "null"} version it would replace
     */
    default Optional<ObjectVersion> putObject(ObjectVersion version, Precondition precondition, LockCheck replacing)
            throws NoSuchBucketException, PreconditionFailedException {
        return Refusals.putting(apply(new MetadataCommand.PutVersion(version, precondition, replacing)));
    }

    /** The version of a key that has this id, delete markers included. */
    Optional<ObjectVersion> getVersion(String bucket, String key, String versionId);

    /**
     * Removes the {@code "null"} version of a key and queues its blocks; returns what was removed.
     * That is {@code deleteVersion(bucket, key, "null")}: in an unversioned bucket, where every
     * version is {@code "null"}, it deletes the object. (A versioned delete puts a delete marker
     * instead, with {@link #putObject(ObjectVersion)}.)
     */
    default Optional<ObjectVersion> deleteObject(String bucket, String key) {
        return deleteVersion(bucket, key, ObjectVersion.NULL_VERSION);
    }

    /**
     * Removes exactly the version of a key that has this id, delete marker or not, and queues its
     * blocks (except those another version of the key references). If it was current, the next
     * newest version becomes current: listed again unless it is a delete marker itself. Returns
     * what was removed, empty if the key has no version of that id.
     */
    default Optional<ObjectVersion> deleteVersion(String bucket, String key, String versionId) {
        return deleteVersion(bucket, key, versionId, LockCheck.NONE, null);
    }

    /**
     * {@link #deleteVersion(String, String, String)} if {@code lock} allows it and, when {@code
     * expected} is given, the version still matches it (else nothing happens and the result is
     * empty), checked atomically with the removal.
     *
     * @throws ObjectLockedException if Object Lock protects the version
     */
    default Optional<ObjectVersion> deleteVersion(
            String bucket, String key, String versionId, LockCheck lock, @Nullable VersionMatch expected) {
        return Refusals.locking(apply(new MetadataCommand.DeleteVersion(bucket, key, versionId, lock, expected)));
    }

    /**
     * Atomically changes the metadata of the version of a key that has this id: tags, ACL, legal
     * hold, retention. Where it stands among the versions does not change; if it is current,
     * listings show the change.
     *
     * @return the changed version; empty if there is no version of that id
     * @throws ObjectLockedException if the version's retention forbids a retention change
     */
    default Optional<ObjectVersion> changeVersion(String bucket, String key, String versionId, VersionChange change) {
        return Refusals.locking(apply(new MetadataCommand.ChangeVersion(bucket, key, versionId, change)));
    }

    /**
     * One page of the current versions of a bucket, in key order (UTF-8 bytes). Keys whose current
     * version is a delete marker are left out; noncurrent versions never appear.
     *
     * <p>Keys start with {@code query.prefix()}. With a delimiter, every key that contains it after
     * the prefix is rolled up into one common prefix (the key up to and including that first
     * delimiter), returned once. {@code query.after()} is exclusive and may be a common prefix
     * returned by an earlier page, in which case everything under it is skipped. {@code maxKeys}
     * counts entries and common prefixes together; 0 gives an empty page that is not truncated. A
     * page is truncated only if at least one more entry or common prefix follows it. A bucket that
     * does not exist lists as empty: the caller checks existence when it matters.
     */
    ObjectListing listObjects(String bucket, ListQuery query);

    /**
     * One page of every version of a bucket, delete markers included: by key (UTF-8 bytes), then
     * newest first. Prefix, delimiter roll-up and {@code maxKeys} work as in {@link #listObjects}
     * (common prefixes count toward {@code maxKeys}); {@link ListedVersion#latest()} marks the
     * newest version of each key.
     *
     * <p>Markers follow S3: with only {@code keyMarker}, versions of keys strictly greater than it
     * (everything under it if it is a common prefix of this listing); with both, the versions of
     * that key older than the one whose id is {@code versionIdMarker}, then later keys. If the key
     * has no version of that id (it was deleted since the previous page), listing resumes after
     * the key. {@code versionIdMarker} alone is ignored. When truncated, the next markers name the
     * last version returned, or the last common prefix and no version id. A bucket that does not
     * exist lists as empty.
     */
    VersionListing listVersions(String bucket, VersionQuery query);

    // Multipart uploads

    default void createUpload(MultipartUpload upload) throws NoSuchBucketException {
        Refusals.creatingUpload(apply(new MetadataCommand.CreateUpload(upload)));
    }

    Optional<MultipartUpload> getUpload(String bucket, String key, String uploadId);

    /**
     * Stores a part, replacing (and queuing the blocks of) a part of the same number.
     *
     * @throws NoSuchUploadException if the upload is gone (completed or aborted meanwhile); the
     *     part's own blocks are then queued
     */
    default void putPart(MultipartUpload upload, Part part) throws NoSuchUploadException {
        Refusals.puttingPart(apply(new MetadataCommand.PutPart(upload, part)));
    }

    Optional<Part> getPart(String uploadId, int partNumber);

    /**
     * Parts with numbers greater than {@code afterPartNumber}, at most {@code maxParts}; truncated
     * only if another part follows.
     */
    PartListing listParts(String uploadId, int afterPartNumber, int maxParts);

    /**
     * Uploads of the bucket ordered by key then initiation, after the (key, uploadId) markers, with
     * keys rolled up at the delimiter like {@link #listObjects}.
     *
     * <p>Markers follow S3: with only {@code keyMarker}, uploads of keys strictly greater than it
     * (everything under it if it is a common prefix); with both, uploads of that key whose id is
     * greater than {@code uploadIdMarker}, then later keys; {@code uploadIdMarker} alone is ignored.
     * When truncated, the next markers name the last upload returned, or the last common prefix and
     * no upload id.
     */
    UploadListing listUploads(
            String bucket,
            String prefix,
            @Nullable String delimiter,
            @Nullable String keyMarker,
            @Nullable String uploadIdMarker,
            int maxUploads);

    /**
     * Atomically puts {@code version} as {@link #putObject(ObjectVersion)} does, removes the upload
     * and all its parts, and queues the blocks of the replaced {@code "null"} version (if any) and
     * of every part whose blocks {@code version} does not reference. Returns the replaced version.
     *
     * <p>A store whose parts and completion share one lock (the single node's) also refuses, with {@link
     * PartsChangedException} and no change, a version referencing blocks that are no longer any part's: a
     * part uploaded again since its caller read the parts released them.
     *
     * @throws NoSuchUploadException if the upload no longer exists
     */
    default Optional<ObjectVersion> completeUpload(MultipartUpload upload, ObjectVersion version)
            throws NoSuchUploadException {
        try {
            return completeUpload(upload, version, new Precondition.None());
        } catch (PreconditionFailedException impossible) {
            throw new IllegalStateException("no precondition, yet it failed", impossible);
        }
    }

    /**
     * {@link #completeUpload(MultipartUpload, ObjectVersion)} if the current version of the key
     * meets {@code precondition}, checked atomically with the write.
     *
     * @throws NoSuchUploadException if the upload no longer exists (checked first)
     * @throws PreconditionFailedException if the precondition is not met; nothing changes, the
     *     upload and its parts stay
     */
    default Optional<ObjectVersion> completeUpload(MultipartUpload upload, ObjectVersion version,
            Precondition precondition) throws NoSuchUploadException, PreconditionFailedException {
        return Refusals.completing(apply(new MetadataCommand.CompleteUpload(upload, version, precondition)));
    }

    /** Removes the upload and its parts and queues their blocks; false if it did not exist. */
    default boolean abortUpload(MultipartUpload upload) {
        return apply(new MetadataCommand.AbortUpload(upload)).value();
    }

    // Block reclamation queue

    /**
     * Up to {@code max} queued block ids; empty only if the queue is. Successive calls need not
     * return the same ids: an id stays queued until {@link #forgetGarbage forgotten}, and a drain
     * that cannot free one block yet still gets to the others.
     */
    List<BlockId> pendingGarbage(int max);

    void forgetGarbage(Collection<BlockId> ids);

    /**
     * Queues blocks that were written but never became reachable, e.g. the blocks of a PUT whose
     * payload failed verification.
     */
    void queueGarbage(Collection<BlockId> ids);

    // Whole-store views

    /**
     * Totals over the whole store: object versions and their bytes, delete markers, buckets and
     * uploads in progress. Exact: each mutation updates them in its own atomic write, and they
     * survive restarts. One call reads them all at one point in time.
     */
    StoreStatistics statistics();

    /**
     * Calls {@code visitor} with every block reference of the store: each block of every stored
     * object version (current and noncurrent, in every bucket) and of every uploaded part of every
     * multipart upload in progress. This is what a scrub needs to tell referenced blocks from
     * orphans; blocks queued for reclamation ({@link #pendingGarbage}) are not references.
     *
     * <p>Weakly consistent: the walk reads the store as it was when the call started (a snapshot),
     * so mutations running meanwhile are neither seen nor disturb it, and a reference that moves
     * (a part's blocks becoming an object's on {@link #completeUpload}) is seen exactly in one of
     * its places. A block written after the call started may or may not be visited: a scrub must
     * not treat blocks newer than the start of the walk as orphans, since a PUT writes its blocks
     * before it commits their version.
     *
     * <p>Streaming: references are handed over one by one while the store is read, never
     * collected, so memory does not grow with the size of the store. A block shared by several
     * versions of a key is visited once per version that references it. Runs in the calling
     * thread; {@link #close} waits for it to finish. An exception from {@code visitor} stops the
     * walk and propagates.
     */
    void forEachBlockReference(Consumer<? super BlockRef> visitor);

    // Bucket configurations

    /**
     * The configuration document of one kind of a bucket. Kinds are the S3 layer's ({@code
     * "versioning"}, {@code "cors"}, {@code "website"}, {@code "lifecycle"}, {@code "policy"},
     * {@code "acl"}, {@code "tagging"}, {@code "object-lock"}, ...); documents are opaque bytes
     * to the store. Empty if the bucket has none of that kind, or does not exist.
     */
    Optional<byte[]> getBucketConfig(String bucket, String kind);

    /**
     * Stores the configuration document of one kind, replacing any previous one. Deleting the
     * bucket deletes its configurations.
     *
     * @throws NoSuchBucketException if the bucket does not exist
     */
    default void putBucketConfig(String bucket, String kind, byte[] document) throws NoSuchBucketException {
        Refusals.configuring(apply(new MetadataCommand.PutBucketConfig(bucket, kind, document)));
    }

    /** Removes the configuration document of one kind; false if there was none. */
    default boolean deleteBucketConfig(String bucket, String kind) {
        return apply(new MetadataCommand.DeleteBucketConfig(bucket, kind)).value();
    }

    // Service configurations

    /**
     * A configuration document of the service itself (not of a bucket), by kind and name; empty if there is none.
     * Kinds and names follow {@link ServiceConfigNames} (not empty, no U+0000; else {@link
     * IllegalArgumentException}); documents are opaque bytes to the store, as a bucket's are.
     */
    Optional<byte[]> getServiceConfig(String kind, String name);

    /**
     * Every configuration document of a kind, by name in name order: {@link ServiceConfigNames#ORDER}, the UTF-8
     * bytes, as every listing of the store.
     */
    SortedMap<String, byte[]> listServiceConfigs(String kind);

    /** Stores a service configuration document, replacing any previous one of that kind and name. */
    default void putServiceConfig(String kind, String name, byte[] document) {
        apply(new MetadataCommand.PutServiceConfig(kind, name, document)).value();
    }

    /** Removes a service configuration document; false if there was none. */
    default boolean deleteServiceConfig(String kind, String name) {
        return apply(new MetadataCommand.DeleteServiceConfig(kind, name)).value();
    }

    // Access keys

    Optional<AccessKey> getAccessKey(String accessKeyId);

    /** Stores the key, replacing any key of the same id. */
    default void putAccessKey(AccessKey key) {
        apply(new MetadataCommand.PutAccessKey(key)).value();
    }

    /** All keys by id. */
    List<AccessKey> listAccessKeys();

    /** Removes the key; false if there was none. */
    default boolean deleteAccessKey(String accessKeyId) {
        return apply(new MetadataCommand.DeleteAccessKey(accessKeyId)).value();
    }

    /**
     * Atomically changes the key (say to grant a bucket or replace its secret); empty if there is
     * no such key.
     *
     * @throws CommandRefusedException with {@code CONFLICT} if the change's condition does not hold
     *     (a secret replaced meanwhile); nothing is written
     */
    default Optional<AccessKey> changeAccessKey(String accessKeyId, AccessKeyChange change) {
        return apply(new MetadataCommand.ChangeAccessKey(accessKeyId, change)).value();
    }

    // Durability

    /**
     * Forces every acknowledged mutation that is not yet on stable storage; a no-op when mutations
     * are synced as they happen (or left to the operating system). A store that batches its syncs
     * and was opened without a sync thread of its own relies on its owner to call this at least
     * every interval: a node calls it right after forcing the blocks, so that metadata committed
     * before that round is synced only once the blocks it points to are.
     *
     * @throws MetadataStorageException if the sync fails; the store then fails every later mutation
     */
    default void sync() {}

    /** How the write-ahead log was synced and shared since the store opened, for metrics. */
    default WriteLogStatistics writeLog() {
        return WriteLogStatistics.NONE;
    }

    @Override
    void close();
}
