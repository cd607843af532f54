package dev.hangar.metadata;

import dev.hangar.blockstore.BlockId;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
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
 */
public interface MetadataStore extends AutoCloseable {

    // Buckets

    Optional<BucketRecord> getBucket(String name);

    /** Creates the bucket; returns false, changing nothing, if a bucket of that name exists. */
    boolean createBucket(BucketRecord bucket);

    /**
     * Deletes an empty bucket.
     *
     * @throws BucketNotEmptyException if it holds objects or multipart uploads
     * @return false if there was no such bucket
     */
    boolean deleteBucket(String name) throws BucketNotEmptyException;

    /** All buckets by name. */
    List<BucketRecord> listBuckets();

    // Objects (current versions)

    Optional<ObjectVersion> getObject(String bucket, String key);

    /**
     * Makes {@code version} the current version of its key, replacing (and queuing the blocks of)
     * the previous one, which is returned. Blocks that {@code version} itself references are not
     * queued, so a rewrite of the metadata alone keeps its bytes.
     *
     * @throws NoSuchBucketException if the bucket does not exist
     */
    Optional<ObjectVersion> putObject(ObjectVersion version) throws NoSuchBucketException;

    /** Removes the current version of a key and queues its blocks; returns what was removed. */
    Optional<ObjectVersion> deleteObject(String bucket, String key);

    /**
     * One page of the current versions of a bucket, in key order (UTF-8 bytes).
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

    // Multipart uploads

    void createUpload(MultipartUpload upload) throws NoSuchBucketException;

    Optional<MultipartUpload> getUpload(String bucket, String key, String uploadId);

    /**
     * Stores a part, replacing (and queuing the blocks of) a part of the same number.
     *
     * @throws NoSuchUploadException if the upload is gone (completed or aborted meanwhile); the
     *     part's own blocks are then queued
     */
    void putPart(MultipartUpload upload, Part part) throws NoSuchUploadException;

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
     * Atomically makes {@code version} current, removes the upload and all its parts, and queues
     * the blocks of the replaced version and of every part whose blocks {@code version} does not
     * reference.
     *
     * @throws NoSuchUploadException if the upload no longer exists
     */
    Optional<ObjectVersion> completeUpload(MultipartUpload upload, ObjectVersion version)
            throws NoSuchUploadException;

    /** Removes the upload and its parts and queues their blocks; false if it did not exist. */
    boolean abortUpload(MultipartUpload upload);

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

    // Access keys

    Optional<AccessKey> getAccessKey(String accessKeyId);

    void putAccessKey(AccessKey key);

    List<AccessKey> listAccessKeys();

    @Override
    void close();
}
