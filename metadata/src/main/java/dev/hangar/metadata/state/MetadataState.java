package dev.hangar.metadata.state;

import dev.hangar.blockstore.BlockId;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The records a command reads and writes, as {@link MetadataStateMachine} sees them: a small
 * ordered key-value facade over whatever holds them (one RocksDB write batch on a single node, a
 * quorum of replicas in the leaderless cluster, a replica applying a committed log entry).
 *
 * <p>Reads see the state as it was before the command: the state machine reads what it needs
 * first, then writes. Writes take effect together when the command ends (one batch), or not at all
 * if it is refused — a refused command writes nothing, except {@link #queueGarbage} where it says so.
 */
public interface MetadataState {

    // Reads

    Optional<BucketRecord> bucket(String name);

    /** Whether the bucket holds any version (delete markers and noncurrent versions count). */
    boolean holdsVersions(String bucket);

    /** Whether the bucket holds any multipart upload. */
    boolean holdsUploads(String bucket);

    /** The newest version of a key. */
    Optional<StoredVersion> newest(String bucket, String key);

    /** Every version of a key, newest first. */
    List<StoredVersion> versions(String bucket, String key);

    /** The version of a key that has this id. */
    default Optional<StoredVersion> version(String bucket, String key, String versionId) {
        return versions(bucket, key).stream().filter(stored -> stored.versionId().equals(versionId)).findFirst();
    }

    Optional<MultipartUpload> upload(String bucket, String key, String uploadId);

    /** The parts of an upload by number. */
    List<Part> parts(String uploadId);

    Optional<Part> part(String uploadId, int partNumber);

    Optional<byte[]> config(String bucket, String kind);

    Optional<AccessKey> accessKey(String accessKeyId);

    /** A configuration document of the service, by kind and name. */
    Optional<byte[]> serviceConfig(String kind, String name);

    // Writes

    void putBucket(BucketRecord bucket);

    /** Removes the bucket record and every configuration of the bucket. */
    void removeBucket(String name);

    void putConfig(String bucket, String kind, byte[] document);

    void removeConfig(String bucket, String kind);

    /**
     * Adds a version at {@code order}, newer than every version of its key.
     *
     * @param previous the key's newest version before this one, which stops being current
     */
    void addVersion(StoredVersion added, @Nullable StoredVersion previous);

    /**
     * Removes a version.
     *
     * @param promoted if the removed version was the newest, the version that becomes the newest
     *     (null if none is left); null otherwise
     * @param wasNewest whether the removed version was the key's newest
     */
    void removeVersion(StoredVersion removed, boolean wasNewest, @Nullable StoredVersion promoted);

    /** Replaces a version's record by {@code changed}, at the same order (a metadata change). */
    void replaceVersion(StoredVersion before, ObjectVersion changed, boolean isNewest);

    /** Stores an upload; {@code isNew} if no upload of that id was stored. */
    void putUpload(MultipartUpload upload, boolean isNew);

    void removeUpload(MultipartUpload upload);

    void putPart(Part part);

    void removePart(Part part);

    void putAccessKey(AccessKey key);

    void removeAccessKey(String accessKeyId);

    void putServiceConfig(String kind, String name, byte[] document);

    void removeServiceConfig(String kind, String name);

    /**
     * Queues blocks that nothing references any more for reclamation. Also called by a refused
     * command, for blocks written for it that nothing else will ever free (the parts of an upload
     * that is gone); those queued writes are then kept.
     */
    void queueGarbage(List<BlockId> ids);
}
