package dev.hangar.metadata.command;

import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.Precondition;
import dev.hangar.metadata.ServiceConfigNames;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One metadata mutation, as a value: the closed set of everything Hangar changes in its metadata.
 *
 * <p>A command carries everything its outcome depends on. Version ids, timestamps, owners and block
 * references are decided by the coordinator before the command exists; conditions ("the current
 * version has this ETag", "the version is not locked at this instant", "this is still the version
 * lifecycle judged expired") travel inside it and are checked when it is applied, atomically with
 * the change. So a command can be logged, sent to another node, or applied again, and {@link
 * dev.hangar.metadata.state.MetadataStateMachine} gives the same answer from the same state.
 *
 * <p>{@code R} is the type of the result a command gives when it is applied (see {@link
 * dev.hangar.metadata.state.Outcome}). {@link CommandCodec} encodes commands for logs and the wire.
 */
public sealed interface MetadataCommand<R> {

    /** The bucket the command changes, or null for commands on access keys and service configurations. */
    @Nullable String bucket();

    // Buckets

    /** Creates a bucket; the result is false, nothing changed, if one of that name exists. */
    record CreateBucket(BucketRecord record) implements MetadataCommand<Boolean> {
        public CreateBucket {
            Objects.requireNonNull(record, "record");
        }

        @Override
        public String bucket() {
            return record.name();
        }
    }

    /**
     * Deletes an empty bucket and its configurations; false if there was none. Refused with {@code
     * BUCKET_NOT_EMPTY} while any version or upload remains.
     */
    record DeleteBucket(String bucket) implements MetadataCommand<Boolean> {
        public DeleteBucket {
            Objects.requireNonNull(bucket, "bucket");
        }
    }

    /** Stores one kind of configuration document of a bucket, replacing the previous one. */
    record PutBucketConfig(String bucket, String kind, byte[] document) implements MetadataCommand<Boolean> {
        public PutBucketConfig {
            Objects.requireNonNull(bucket, "bucket");
            requireKind(kind);
            Objects.requireNonNull(document, "document");
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof PutBucketConfig that && bucket.equals(that.bucket) && kind.equals(that.kind)
                    && Arrays.equals(document, that.document);
        }

        @Override
        public int hashCode() {
            return Objects.hash(bucket, kind, Arrays.hashCode(document));
        }

        @Override
        public String toString() {
            return "PutBucketConfig[bucket=" + bucket + ", kind=" + kind + ", " + document.length + " bytes]";
        }
    }

    /** Removes one kind of configuration document; false if there was none. */
    record DeleteBucketConfig(String bucket, String kind) implements MetadataCommand<Boolean> {
        public DeleteBucketConfig {
            Objects.requireNonNull(bucket, "bucket");
            requireKind(kind);
        }
    }

    // Object versions

    /**
     * Makes {@code version} the newest version of its key, if the current version meets {@code
     * precondition}. A {@code "null"} version replaces the key's previous {@code "null"} version,
     * which {@code replacing} must allow (Object Lock); the result is the version replaced.
     */
    record PutVersion(ObjectVersion version, Precondition precondition, LockCheck replacing)
            implements MetadataCommand<Optional<ObjectVersion>> {
        public PutVersion {
            Objects.requireNonNull(version, "version");
            Objects.requireNonNull(precondition, "precondition");
            Objects.requireNonNull(replacing, "replacing");
        }

        @Override
        public String bucket() {
            return version.bucket();
        }
    }

    /**
     * Removes exactly the version of a key that has this id, if {@code lock} allows it and, when
     * {@code expected} is given, it still is that version; the result is what was removed, empty if
     * there was no such version (or it no longer matched {@code expected}).
     */
    record DeleteVersion(String bucket, String key, String versionId, LockCheck lock, @Nullable VersionMatch expected)
            implements MetadataCommand<Optional<ObjectVersion>> {
        public DeleteVersion {
            Objects.requireNonNull(bucket, "bucket");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(versionId, "versionId");
            Objects.requireNonNull(lock, "lock");
        }
    }

    /**
     * Changes the metadata of one version (tags, ACL, legal hold, retention); its content and where
     * it stands among the key's versions stay. The result is the changed version, empty if there is
     * no version of that id.
     */
    record ChangeVersion(String bucket, String key, String versionId, VersionChange change)
            implements MetadataCommand<Optional<ObjectVersion>> {
        public ChangeVersion {
            Objects.requireNonNull(bucket, "bucket");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(versionId, "versionId");
            Objects.requireNonNull(change, "change");
        }
    }

    // Multipart uploads

    /** Records a new multipart upload. */
    record CreateUpload(MultipartUpload upload) implements MetadataCommand<Boolean> {
        public CreateUpload {
            Objects.requireNonNull(upload, "upload");
        }

        @Override
        public String bucket() {
            return upload.bucket();
        }
    }

    /**
     * Stores a part, replacing a part of the same number (whose blocks become garbage). Refused with
     * {@code NO_SUCH_UPLOAD} if the upload is gone; the part's own blocks are then garbage.
     */
    record PutPart(MultipartUpload upload, Part part) implements MetadataCommand<Boolean> {
        public PutPart {
            Objects.requireNonNull(upload, "upload");
            Objects.requireNonNull(part, "part");
            if (!upload.uploadId().equals(part.uploadId())) {
                throw new IllegalArgumentException("part of upload " + part.uploadId() + " given for " + upload.uploadId());
            }
        }

        @Override
        public String bucket() {
            return upload.bucket();
        }
    }

    /**
     * Puts {@code version} as {@link PutVersion} does and removes the upload with its parts; blocks
     * of parts the version does not use become garbage. Refused with {@code NO_SUCH_UPLOAD} if the
     * upload is gone, {@code PARTS_CHANGED} if the version names a block no current part holds.
     */
    record CompleteUpload(MultipartUpload upload, ObjectVersion version, Precondition precondition)
            implements MetadataCommand<Optional<ObjectVersion>> {
        public CompleteUpload {
            Objects.requireNonNull(upload, "upload");
            Objects.requireNonNull(version, "version");
            Objects.requireNonNull(precondition, "precondition");
            if (!upload.bucket().equals(version.bucket()) || !upload.key().equals(version.key())) {
                throw new IllegalArgumentException("the completed version must have the upload's bucket and key");
            }
        }

        @Override
        public String bucket() {
            return upload.bucket();
        }
    }

    /** Removes an upload and its parts, whose blocks become garbage; false if it did not exist. */
    record AbortUpload(MultipartUpload upload) implements MetadataCommand<Boolean> {
        public AbortUpload {
            Objects.requireNonNull(upload, "upload");
        }

        @Override
        public String bucket() {
            return upload.bucket();
        }
    }

    // Access keys

    /** Stores an access key (its secret as given: sealed by the caller), replacing one of the same id. */
    record PutAccessKey(AccessKey key) implements MetadataCommand<Boolean> {
        public PutAccessKey {
            Objects.requireNonNull(key, "key");
        }

        @Override
        public @Nullable String bucket() {
            return null;
        }
    }

    /** Removes an access key; false if there was none. */
    record DeleteAccessKey(String accessKeyId) implements MetadataCommand<Boolean> {
        public DeleteAccessKey {
            Objects.requireNonNull(accessKeyId, "accessKeyId");
        }

        @Override
        public @Nullable String bucket() {
            return null;
        }
    }

    /** Changes an access key; the result is the changed key, empty if there is none of that id. */
    record ChangeAccessKey(String accessKeyId, AccessKeyChange change) implements MetadataCommand<Optional<AccessKey>> {
        public ChangeAccessKey {
            Objects.requireNonNull(accessKeyId, "accessKeyId");
            Objects.requireNonNull(change, "change");
        }

        @Override
        public @Nullable String bucket() {
            return null;
        }
    }

    // Service configurations

    /**
     * Stores a configuration document of the service itself (not of a bucket), replacing the previous one of that
     * kind and name; the result is always true. Kind and name follow {@link ServiceConfigNames}.
     */
    record PutServiceConfig(String kind, String name, byte[] document) implements MetadataCommand<Boolean> {
        public PutServiceConfig {
            ServiceConfigNames.requireKind(kind);
            ServiceConfigNames.requireName(name);
            Objects.requireNonNull(document, "document");
        }

        @Override
        public @Nullable String bucket() {
            return null;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof PutServiceConfig that && kind.equals(that.kind) && name.equals(that.name)
                    && Arrays.equals(document, that.document);
        }

        @Override
        public int hashCode() {
            return Objects.hash(kind, name, Arrays.hashCode(document));
        }

        // The document may be key material (wrapped, but still): its length is all a log line needs.
        @Override
        public String toString() {
            return "PutServiceConfig[kind=" + kind + ", name=" + name + ", " + document.length + " bytes]";
        }
    }

    /** Removes a service configuration document; false if there was none. */
    record DeleteServiceConfig(String kind, String name) implements MetadataCommand<Boolean> {
        public DeleteServiceConfig {
            ServiceConfigNames.requireKind(kind);
            ServiceConfigNames.requireName(name);
        }

        @Override
        public @Nullable String bucket() {
            return null;
        }
    }

    private static void requireKind(String kind) {
        if (kind == null || kind.isEmpty()) {
            throw new IllegalArgumentException("configuration kind must not be empty");
        }
    }
}
