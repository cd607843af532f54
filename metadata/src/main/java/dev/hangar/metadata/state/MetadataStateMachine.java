package dev.hangar.metadata.state;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectLock;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.Precondition;
import dev.hangar.metadata.command.AccessKeyChange;
import dev.hangar.metadata.command.LockCheck;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.command.MetadataCommand.AbortUpload;
import dev.hangar.metadata.command.MetadataCommand.ChangeAccessKey;
import dev.hangar.metadata.command.MetadataCommand.ChangeVersion;
import dev.hangar.metadata.command.MetadataCommand.CompleteUpload;
import dev.hangar.metadata.command.MetadataCommand.CreateBucket;
import dev.hangar.metadata.command.MetadataCommand.CreateUpload;
import dev.hangar.metadata.command.MetadataCommand.DeleteAccessKey;
import dev.hangar.metadata.command.MetadataCommand.DeleteBucket;
import dev.hangar.metadata.command.MetadataCommand.DeleteBucketConfig;
import dev.hangar.metadata.command.MetadataCommand.DeleteServiceConfig;
import dev.hangar.metadata.command.MetadataCommand.DeleteVersion;
import dev.hangar.metadata.command.MetadataCommand.PutAccessKey;
import dev.hangar.metadata.command.MetadataCommand.PutBucketConfig;
import dev.hangar.metadata.command.MetadataCommand.PutPart;
import dev.hangar.metadata.command.MetadataCommand.PutServiceConfig;
import dev.hangar.metadata.command.MetadataCommand.PutVersion;
import dev.hangar.metadata.command.VersionChange;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The S3 metadata rules, in one place: applies a {@link MetadataCommand} to a {@link MetadataState}
 * and gives its {@link Outcome}. Deterministic: the same command on the same state, with the same
 * stamp, reads and writes the same records and gives the same outcome, wherever it runs.
 *
 * <p>The rules: a key's versions are ordered by the order the store gave them, newest current; a
 * {@code "null"} version replaces the key's previous {@code "null"} one; removing the current
 * version makes the next newest current; a delete marker is a version. A block becomes garbage
 * when the last version or part referencing it goes, never while another version of the same key,
 * or the version replacing it, references it. Preconditions and Object Lock are checked against
 * the state the command is applied to, so atomically with the change. A refused command changes
 * nothing; it checks everything before it writes anything.
 */
public final class MetadataStateMachine {
    private MetadataStateMachine() {}

    /**
     * Applies {@code command} to {@code state}.
     *
     * @param stamp where a version the command adds stands among its key's versions: the
     *     coordinator's clock when it made the command (microseconds), raised to just above the
     *     key's newest version if that is greater, so that a later write is always newer
     */
    @SuppressWarnings("unchecked") // Each command's result type is fixed by its record's declaration.
    public static <R> Outcome<R> apply(MetadataCommand<R> command, long stamp, MetadataState state) {
        Outcome<?> outcome = switch (command) {
            case CreateBucket create -> createBucket(create, state);
            case DeleteBucket delete -> deleteBucket(delete, state);
            case PutBucketConfig put -> putBucketConfig(put, state);
            case DeleteBucketConfig delete -> deleteBucketConfig(delete, state);
            case PutVersion put -> putVersion(put, stamp, state);
            case DeleteVersion delete -> deleteVersion(delete, state);
            case ChangeVersion change -> changeVersion(change, state);
            case CreateUpload create -> createUpload(create, state);
            case PutPart put -> putPart(put, state);
            case CompleteUpload complete -> completeUpload(complete, stamp, state);
            case AbortUpload abort -> abortUpload(abort, state);
            case PutAccessKey put -> putAccessKey(put, state);
            case DeleteAccessKey delete -> deleteAccessKey(delete, state);
            case ChangeAccessKey change -> changeAccessKey(change, state);
            case PutServiceConfig put -> putServiceConfig(put, state);
            case DeleteServiceConfig delete -> deleteServiceConfig(delete, state);
        };
        return (Outcome<R>) outcome;
    }

    // Buckets

    private static Outcome<Boolean> createBucket(CreateBucket command, MetadataState state) {
        if (state.bucket(command.record().name()).isPresent()) {
            return Outcome.done(false);
        }
        state.putBucket(command.record());
        return Outcome.done(true);
    }

    private static Outcome<Boolean> deleteBucket(DeleteBucket command, MetadataState state) {
        String bucket = command.bucket();
        if (state.bucket(bucket).isEmpty()) {
            return Outcome.done(false);
        }
        if (state.holdsVersions(bucket)) {
            return Outcome.refused(Refusal.BUCKET_NOT_EMPTY, "bucket " + bucket + " holds object versions");
        }
        if (state.holdsUploads(bucket)) {
            return Outcome.refused(Refusal.BUCKET_NOT_EMPTY, "bucket " + bucket + " holds multipart uploads");
        }
        state.removeBucket(bucket);
        return Outcome.done(true);
    }

    private static Outcome<Boolean> putBucketConfig(PutBucketConfig command, MetadataState state) {
        if (state.bucket(command.bucket()).isEmpty()) {
            return noSuchBucket(command.bucket());
        }
        state.putConfig(command.bucket(), command.kind(), command.document());
        return Outcome.done(true);
    }

    private static Outcome<Boolean> deleteBucketConfig(DeleteBucketConfig command, MetadataState state) {
        if (state.config(command.bucket(), command.kind()).isEmpty()) {
            return Outcome.done(false);
        }
        state.removeConfig(command.bucket(), command.kind());
        return Outcome.done(true);
    }

    // Object versions

    private static Outcome<Optional<ObjectVersion>> putVersion(PutVersion command, long stamp, MetadataState state) {
        if (state.bucket(command.bucket()).isEmpty()) {
            return noSuchBucket(command.bucket());
        }
        return addNewest(command.version(), command.precondition(), command.replacing(), stamp, state, Set.of())
                .map(Outcome::<Optional<ObjectVersion>>done)
                .orElseGet(() -> refusedNewest(command.version(), command.precondition(), command.replacing(), state));
    }

    /**
     * Makes {@code version} the newest of its key, replacing the {@code "null"} version if it is
     * one; empty (nothing written) if the precondition or the lock of the replaced version forbids
     * it, which {@link #refusedNewest} then explains.
     *
     * @param keep blocks that stay referenced elsewhere (a completion's parts): never queued
     */
    private static Optional<Optional<ObjectVersion>> addNewest(ObjectVersion version, Precondition precondition,
            LockCheck replacing, long stamp, MetadataState state, Set<BlockId> keep) {
        String bucket = version.bucket();
        String key = version.key();
        boolean replacesNull = version.versionId().equals(ObjectVersion.NULL_VERSION);
        // Only a "null" version needs the older versions: one of them may be the "null" it replaces.
        List<StoredVersion> existing = replacesNull
                ? state.versions(bucket, key)
                : state.newest(bucket, key).map(List::of).orElse(List.of());
        StoredVersion newest = existing.isEmpty() ? null : existing.getFirst();
        if (!precondition.isMetBy(newest == null ? null : newest.version())) {
            return Optional.empty();
        }
        StoredVersion replaced = replacesNull ? find(existing, ObjectVersion.NULL_VERSION) : null;
        if (replaced != null && !ObjectLockRules.removable(replaced.version().lock(), replacing)) {
            return Optional.empty();
        }
        long order = newest == null ? stamp : Math.max(stamp, newest.order() + 1);
        state.addVersion(new StoredVersion(version, order), newest);
        if (replaced == null) {
            return Optional.of(Optional.empty());
        }
        state.removeVersion(replaced, false, null);
        List<StoredVersion> kept = new ArrayList<>(existing);
        kept.remove(replaced);
        Set<BlockId> referenced = referencedBy(kept);
        referenced.addAll(idsOf(blocksOf(version)));
        referenced.addAll(keep);
        queueUnreferenced(state, blocksOf(replaced.version()), referenced);
        return Optional.of(Optional.of(replaced.version()));
    }

    /** Why {@link #addNewest} wrote nothing, read again from the unchanged state. */
    private static <R> Outcome<R> refusedNewest(ObjectVersion version, Precondition precondition,
            LockCheck replacing, MetadataState state) {
        Optional<StoredVersion> newest = state.newest(version.bucket(), version.key());
        if (!precondition.isMetBy(newest.map(StoredVersion::version).orElse(null))) {
            return Outcome.refused(Refusal.PRECONDITION_FAILED,
                    "precondition " + precondition + " not met by the current version of " + version.key());
        }
        return Outcome.refused(Refusal.OBJECT_LOCKED,
                "the \"null\" version of " + version.key() + " is protected by Object Lock");
    }

    private static Outcome<Optional<ObjectVersion>> deleteVersion(DeleteVersion command, MetadataState state) {
        List<StoredVersion> versions = state.versions(command.bucket(), command.key());
        int index = indexOf(versions, command.versionId());
        if (index < 0) {
            return Outcome.done(Optional.empty());
        }
        StoredVersion removed = versions.get(index);
        if (command.expected() != null && !command.expected().matches(removed.version())) {
            return Outcome.done(Optional.empty());
        }
        if (!ObjectLockRules.removable(removed.version().lock(), command.lock())) {
            return Outcome.refused(Refusal.OBJECT_LOCKED,
                    "version " + command.versionId() + " of " + command.key() + " is protected by Object Lock");
        }
        List<StoredVersion> remaining = new ArrayList<>(versions);
        remaining.remove(index);
        boolean wasNewest = index == 0;
        state.removeVersion(removed, wasNewest, wasNewest && !remaining.isEmpty() ? remaining.getFirst() : null);
        List<BlockRef> blocks = blocksOf(removed.version());
        if (!blocks.isEmpty()) {
            queueUnreferenced(state, blocks, referencedBy(remaining));
        }
        return Outcome.done(Optional.of(removed.version()));
    }

    private static Outcome<Optional<ObjectVersion>> changeVersion(ChangeVersion command, MetadataState state) {
        List<StoredVersion> versions = state.versions(command.bucket(), command.key());
        int index = indexOf(versions, command.versionId());
        if (index < 0) {
            return Outcome.done(Optional.empty());
        }
        StoredVersion before = versions.get(index);
        ObjectVersion after = changed(before.version(), command.change());
        if (after == null) {
            return Outcome.refused(Refusal.OBJECT_LOCKED,
                    "the retention of version " + command.versionId() + " of " + command.key() + " forbids this change");
        }
        state.replaceVersion(before, after, index == 0);
        return Outcome.done(Optional.of(after));
    }

    // Multipart uploads

    private static Outcome<Boolean> createUpload(CreateUpload command, MetadataState state) {
        MultipartUpload upload = command.upload();
        if (state.bucket(upload.bucket()).isEmpty()) {
            return noSuchBucket(upload.bucket());
        }
        boolean isNew = state.upload(upload.bucket(), upload.key(), upload.uploadId()).isEmpty();
        state.putUpload(upload, isNew);
        return Outcome.done(true);
    }

    private static Outcome<Boolean> putPart(PutPart command, MetadataState state) {
        MultipartUpload upload = command.upload();
        Part part = command.part();
        if (state.upload(upload.bucket(), upload.key(), upload.uploadId()).isEmpty()) {
            // The part's blocks were written for an upload that is gone: nobody else will free them.
            state.queueGarbage(idsOf(part.blocks()).stream().toList());
            return noSuchUpload(upload);
        }
        Optional<Part> previous = state.part(part.uploadId(), part.partNumber());
        state.putPart(part);
        previous.ifPresent(replaced -> queueUnreferenced(state, replaced.blocks(), idsOf(part.blocks())));
        return Outcome.done(true);
    }

    private static Outcome<Optional<ObjectVersion>> completeUpload(
            CompleteUpload command, long stamp, MetadataState state) {
        MultipartUpload upload = command.upload();
        if (state.upload(upload.bucket(), upload.key(), upload.uploadId()).isEmpty()) {
            return noSuchUpload(upload);
        }
        List<Part> parts = state.parts(upload.uploadId());
        Set<BlockId> partBlocks = new HashSet<>();
        parts.forEach(part -> partBlocks.addAll(idsOf(part.blocks())));
        Set<BlockId> used = idsOf(blocksOf(command.version()));
        for (BlockId id : used) {
            if (!partBlocks.contains(id)) {
                return Outcome.refused(Refusal.PARTS_CHANGED, "upload " + upload.uploadId() + ": block " + id
                        + " is no longer any part's (a part was uploaded again)");
            }
        }
        Optional<Optional<ObjectVersion>> replaced =
                addNewest(command.version(), command.precondition(), LockCheck.NONE, stamp, state, used);
        if (replaced.isEmpty()) {
            return refusedNewest(command.version(), command.precondition(), LockCheck.NONE, state);
        }
        state.removeUpload(upload);
        for (Part part : parts) {
            state.removePart(part);
            queueUnreferenced(state, part.blocks(), used);
        }
        return Outcome.done(replaced.get());
    }

    private static Outcome<Boolean> abortUpload(AbortUpload command, MetadataState state) {
        MultipartUpload upload = command.upload();
        if (state.upload(upload.bucket(), upload.key(), upload.uploadId()).isEmpty()) {
            // A part of a missing upload is refused, so there are no parts to remove either.
            return Outcome.done(false);
        }
        List<Part> parts = state.parts(upload.uploadId());
        state.removeUpload(upload);
        for (Part part : parts) {
            state.removePart(part);
            queueUnreferenced(state, part.blocks(), Set.of());
        }
        return Outcome.done(true);
    }

    // Service configurations: as a bucket's, without a bucket to check.

    private static Outcome<Boolean> putServiceConfig(PutServiceConfig command, MetadataState state) {
        state.putServiceConfig(command.kind(), command.name(), command.document());
        return Outcome.done(true);
    }

    private static Outcome<Boolean> deleteServiceConfig(DeleteServiceConfig command, MetadataState state) {
        if (state.serviceConfig(command.kind(), command.name()).isEmpty()) {
            return Outcome.done(false);
        }
        state.removeServiceConfig(command.kind(), command.name());
        return Outcome.done(true);
    }

    // Access keys

    private static Outcome<Boolean> putAccessKey(PutAccessKey command, MetadataState state) {
        state.putAccessKey(command.key());
        return Outcome.done(true);
    }

    private static Outcome<Boolean> deleteAccessKey(DeleteAccessKey command, MetadataState state) {
        if (state.accessKey(command.accessKeyId()).isEmpty()) {
            return Outcome.done(false);
        }
        state.removeAccessKey(command.accessKeyId());
        return Outcome.done(true);
    }

    private static Outcome<Optional<AccessKey>> changeAccessKey(ChangeAccessKey command, MetadataState state) {
        Optional<AccessKey> before = state.accessKey(command.accessKeyId());
        if (before.isEmpty()) {
            return Outcome.done(Optional.empty());
        }
        AccessKey after = changed(before.get(), command.change());
        if (after == null) {
            return Outcome.refused(Refusal.CONFLICT,
                    "the secret of access key " + command.accessKeyId() + " was replaced meanwhile");
        }
        state.putAccessKey(after);
        return Outcome.done(Optional.of(after));
    }

    /** The version after {@code change}; null if its retention forbids the change. */
    private static @Nullable ObjectVersion changed(ObjectVersion version, VersionChange change) {
        return switch (change) {
            case VersionChange.SetTags tags -> version.withTags(tags.tags());
            case VersionChange.SetAcl acl -> version.withAcl(acl.acl());
            case VersionChange.SetLegalHold hold -> version.withLock(ObjectLockRules.withLegalHold(version.lock(), hold.on()));
            case VersionChange.SetRetention retention -> {
                ObjectLock lock = ObjectLockRules.withRetention(version.lock(), retention);
                yield lock == null ? null : version.withLock(lock);
            }
        };
    }

    /** The key after {@code change}; null if a condition of the change does not hold. */
    private static @Nullable AccessKey changed(AccessKey key, AccessKeyChange change) {
        return switch (change) {
            case AccessKeyChange.SetBucketPermission grant -> key.withBucketPermission(grant.bucket(), grant.permission());
            case AccessKeyChange.SetCreateBuckets create -> key.withCreateBuckets(create.allowed());
            case AccessKeyChange.ReplaceSecret replace ->
                    key.secretKey().equals(replace.expected()) ? key.withSecretKey(replace.secret()) : null;
            case AccessKeyChange.All all -> {
                AccessKey result = key;
                for (AccessKeyChange each : all.changes()) {
                    result = result == null ? null : changed(result, each);
                }
                yield result;
            }
        };
    }

    // Helpers

    private static <R> Outcome<R> noSuchBucket(String bucket) {
        return Outcome.refused(Refusal.NO_SUCH_BUCKET, "bucket " + bucket + " does not exist");
    }

    private static <R> Outcome<R> noSuchUpload(MultipartUpload upload) {
        return Outcome.refused(Refusal.NO_SUCH_UPLOAD, "upload " + upload.uploadId() + " does not exist");
    }

    private static @Nullable StoredVersion find(List<StoredVersion> versions, String versionId) {
        int index = indexOf(versions, versionId);
        return index < 0 ? null : versions.get(index);
    }

    private static int indexOf(List<StoredVersion> versions, String versionId) {
        for (int i = 0; i < versions.size(); i++) {
            if (versions.get(i).versionId().equals(versionId)) {
                return i;
            }
        }
        return -1;
    }

    /** The blocks of a version's content; none for inline data and delete markers. */
    public static List<BlockRef> blocksOf(ObjectVersion version) {
        return switch (version.content()) {
            case ObjectContent.Inline inline -> List.of();
            case ObjectContent.Blocks blocks -> blocks.blocks();
            case ObjectContent.DeleteMarker marker -> List.of();
        };
    }

    private static Set<BlockId> idsOf(List<BlockRef> blocks) {
        Set<BlockId> ids = new HashSet<>();
        blocks.forEach(block -> ids.add(block.id()));
        return ids;
    }

    private static Set<BlockId> referencedBy(List<StoredVersion> versions) {
        Set<BlockId> ids = new HashSet<>();
        versions.forEach(stored -> ids.addAll(idsOf(blocksOf(stored.version()))));
        return ids;
    }

    private static void queueUnreferenced(MetadataState state, List<BlockRef> blocks, Set<BlockId> referenced) {
        List<BlockId> unreferenced = new ArrayList<>();
        for (BlockRef block : blocks) {
            if (!referenced.contains(block.id()) && !unreferenced.contains(block.id())) {
                unreferenced.add(block.id());
            }
        }
        if (!unreferenced.isEmpty()) {
            state.queueGarbage(unreferenced);
        }
    }
}
