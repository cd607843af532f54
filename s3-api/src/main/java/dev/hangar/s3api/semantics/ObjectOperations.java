package dev.hangar.s3api.semantics;

import dev.hangar.metadata.ObjectLockedException;
import dev.hangar.metadata.command.LockCheck;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.NoSuchBlockException;
import dev.hangar.cluster.ReaderLeases;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.Checksum;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.MetadataUnavailableException;
import dev.hangar.metadata.NoSuchBucketException;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectLock;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Precondition;
import dev.hangar.metadata.PreconditionFailedException;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.S3Request;
import dev.hangar.s3api.xml.ObjectAttribute;
import dev.hangar.s3api.xml.S3Xml;
import dev.hangar.s3api.xml.VersioningConfiguration;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * PutObject, GetObject, HeadObject, DeleteObject, CopyObject and GetObjectAttributes, and what the
 * other object operations share: which version a request names, how a new version gets its id,
 * lock, tags and ACL, and how a version is removed.
 *
 * <p>Versioning follows the bucket's state. Enabled: every write and every delete without {@code
 * versionId} makes a new version with a fresh id (a delete makes a delete marker). Suspended: they
 * make the {@code "null"} version, replacing the previous one. Never enabled: the {@code "null"}
 * version is the object, and a delete removes it.
 */
final class ObjectOperations {
    static final long MAX_SINGLE_PUT = 5L << 30;
    private static final String TOO_LARGE_FOR_A_SINGLE_PUT =
            "Your proposed upload exceeds the maximum allowed size of 5 GiB for a single PUT.";
    private static final String VERSION_ID_HEADER = "x-amz-version-id";
    private static final String DELETE_MARKER_HEADER = "x-amz-delete-marker";

    private final MetadataStore metadata;
    private final ContentStore content;
    private final Reclamation reclamation;
    private final Documents documents;
    private final BucketConfigurations configurations;
    private final ServerSideEncryption encryption;
    private final VersionIds versionIds;
    private final Clock clock;

    ObjectOperations(MetadataStore metadata, ContentStore content, Reclamation reclamation, Documents documents,
            BucketConfigurations configurations, ServerSideEncryption encryption, Clock clock) {
        this.metadata = metadata;
        this.encryption = encryption;
        this.content = content;
        this.reclamation = reclamation;
        this.documents = documents;
        this.configurations = configurations;
        this.versionIds = new VersionIds(clock);
        this.clock = clock;
    }

    /** What a request names: a version with content, or a delete marker. */
    sealed interface Lookup {
        /** A version with content. */
        record Found(ObjectVersion version) implements Lookup {}

        /**
         * A delete marker.
         *
         * @param named whether the request named it by its {@code versionId} (else it is the current version)
         */
        record Marker(ObjectVersion marker, boolean named) implements Lookup {}
    }

    /**
     * What removing a key or a version did.
     *
     * @param versionId the version removed, when the request named one
     * @param deleteMarker whether a delete marker was created, or the removed version was one
     * @param deleteMarkerVersionId the id of that delete marker
     */
    record Deletion(@Nullable String versionId, boolean deleteMarker, @Nullable String deleteMarkerVersionId) {
        static final Deletion UNVERSIONED = new Deletion(null, false, null);
    }

    S3Response put(S3Request request, Payload payload) {
        String bucket = request.requireBucket();
        String key = request.requireKey();
        ObjectKeys.validate(key);
        requireBucket(bucket);
        long length = payload.declaredLength();
        if (length < 0 && !isChunked(request)) {
            throw new S3Exception(S3Error.MISSING_CONTENT_LENGTH);
        }
        if (length > MAX_SINGLE_PUT) {
            throw new S3Exception(S3Error.ENTITY_TOO_LARGE, TOO_LARGE_FOR_A_SINGLE_PUT);
        }
        ObjectHeaders headers = ObjectHeaders.from(request.headers());
        VersionSettings settings = settings(request, bucket);
        Precondition precondition = WritePreconditions.of(request);
        Optional<Sealing> sealing = encryption.forWrite(request, bucket);
        // A body of no declared length (chunked, unsigned: the HTTP layer refuses a signed one) is
        // streamed as any other, and cut off with EntityTooLarge past 5 GiB.
        InputStream body = length >= 0
                ? payload.stream()
                : new LengthLimitedStream(payload.stream(), MAX_SINGLE_PUT, TOO_LARGE_FOR_A_SINGLE_PUT);
        ContentWrite write = new ContentWrite(body, sealing);
        ObjectContent stored = Failures.io(() -> content.write(write.stream(), write.storedLength(length)));
        Checksum checksum = payload.checksum().orElse(null);
        Optional<VersioningConfiguration.Status> versioning = configurations.versioning(bucket);
        ObjectVersion version = sealedWith(newVersion(bucket, key, versioning, write.plainLength(sizeOf(stored)),
                write.etag(payload.md5()), stored, headers, checksum, List.of(), settings), sealing);
        commit(version, precondition);
        Map<String, String> responseHeaders = new LinkedHashMap<>();
        responseHeaders.put("ETag", version.etag());
        sealing.ifPresent(how -> responseHeaders.putAll(how.responseHeaders()));
        if (checksum != null) {
            responseHeaders.put("x-amz-checksum-" + checksum.algorithm().toLowerCase(Locale.ROOT), checksum.value());
        }
        putVersionId(responseHeaders, version.versionId(), versioning);
        return S3Response.empty(200, responseHeaders);
    }

    /** Whether the body comes in HTTP chunks ({@code Transfer-Encoding: chunked}), its length declared nowhere. */
    private static boolean isChunked(S3Request request) {
        String encoding = request.header("transfer-encoding");
        return encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked");
    }

    S3Response get(S3Request request, boolean headOnly) {
        // Begun before the lookup, so that the blocks it finds cannot be freed before they are held.
        try (ReaderLeases.Reading reading = content.beginRead()) {
            return get(request, headOnly, reading);
        }
    }

    private S3Response get(S3Request request, boolean headOnly, ReaderLeases.Reading reading) {
        String bucket = request.requireBucket();
        String key = request.requireKey();
        ObjectVersion version;
        switch (lookup(bucket, key, VersionIds.parameter(request.parameter("versionId")))) {
            case Lookup.Found found -> version = found.version();
            case Lookup.Marker marker -> {
                return markerResponse(request, headOnly, marker);
            }
        }
        Optional<Sealing> sealing = encryption.forRead(request, version);
        if (Conditions.forRead(request, version.etag(), version.lastModified()) == Conditions.Outcome.NOT_MODIFIED) {
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("ETag", version.etag());
            headers.put("Last-Modified", HttpDates.http(version.lastModified()));
            putVersionId(headers, bucket, version.versionId());
            return S3Response.empty(304, headers);
        }
        long size = version.size();
        Optional<ByteRange> range = partRange(request, version);
        if (range.isEmpty()) {
            range = ByteRange.parse(request.header("range"), size);
        }
        boolean checksumWanted = "ENABLED".equalsIgnoreCase(request.header("x-amz-checksum-mode")) && range.isEmpty();
        Map<String, String> headers = new LinkedHashMap<>(ObjectHeaders.response(version, checksumWanted));
        putVersionId(headers, bucket, version.versionId());
        if (!version.tags().isEmpty()) {
            headers.put("x-amz-tagging-count", Integer.toString(version.tags().size()));
        }
        headers.putAll(ObjectLocks.responseHeaders(version));
        sealing.ifPresent(how -> headers.putAll(how.responseHeaders()));
        ResponseOverrides.apply(request, headers);
        if (request.hasParameter("partNumber")) {
            headers.put("x-amz-mp-parts-count", Integer.toString(Math.max(1, version.partSizes().size())));
        }
        long offset = range.map(ByteRange::first).orElse(0L);
        long length = range.map(ByteRange::length).orElse(size);
        int status = range.isPresent() ? 206 : 200;
        range.ifPresent(r -> headers.put("Content-Range", r.contentRange(size)));
        headers.put("Content-Length", Long.toString(length));
        if (headOnly) {
            return S3Response.empty(status, headers);
        }
        ReaderLeases.Lease lease = content.hold(reading, version, sealing, offset, length);
        return new S3Response(status, headers, new S3Response.Body.Stream(length,
                new LeasedBody(content, version, sealing, offset, length, lease)));
    }

    /**
     * GetObjectAttributes: the attributes {@code x-amz-object-attributes} names, of the current
     * version or of {@code versionId}; the parts of a multipart object page with {@code
     * x-amz-max-parts} and {@code x-amz-part-number-marker}.
     */
    S3Response attributes(S3Request request) {
        String bucket = request.requireBucket();
        String key = request.requireKey();
        List<String> names = request.headers().values().getOrDefault("x-amz-object-attributes", List.of());
        Set<ObjectAttribute> requested = S3Xml.parseObjectAttributes(String.join(",", names));
        int maxParts = partsParameter(request, "max-parts", 1000);
        int partNumberMarker = partsParameter(request, "part-number-marker", 0);
        ObjectVersion version;
        switch (lookup(bucket, key, VersionIds.parameter(request.parameter("versionId")))) {
            case Lookup.Found found -> version = found.version();
            case Lookup.Marker marker -> {
                return markerResponse(request, false, marker);
            }
        }
        encryption.forRead(request, version);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Last-Modified", HttpDates.http(version.lastModified()));
        putVersionId(headers, bucket, version.versionId());
        return S3Response.xml(200, headers,
                documents.objectAttributes(version, requested, partNumberMarker, Math.min(maxParts, 1000)));
    }

    S3Response delete(S3Request request) {
        String bucket = request.requireBucket();
        String key = request.requireKey();
        String versionId = VersionIds.parameter(request.parameter("versionId"));
        requireBucket(bucket);
        Deletion deletion = delete(bucket, key, versionId, ObjectLocks.bypass(request));
        Map<String, String> headers = new LinkedHashMap<>();
        if (deletion.deleteMarker()) {
            headers.put(DELETE_MARKER_HEADER, "true");
        }
        String id = deletion.versionId() != null ? deletion.versionId() : deletion.deleteMarkerVersionId();
        if (id != null) {
            headers.put(VERSION_ID_HEADER, id);
        }
        return S3Response.empty(204, headers);
    }

    /**
     * Removes a version, or deletes the key as its bucket's versioning state says: a delete marker
     * with a fresh id (Enabled), the {@code "null"} delete marker replacing the {@code "null"}
     * version (Suspended), or the object itself (never versioned). A version that does not exist
     * is no error, as in S3.
     *
     * @param bypass whether the request bypasses GOVERNANCE retention
     * @throws S3Exception AccessDenied when Object Lock protects the version to remove
     */
    Deletion delete(String bucket, String key, @Nullable String versionId, boolean bypass) {
        if (versionId != null) {
            Optional<ObjectVersion> removed = ObjectLocks.enforced(
                    () -> metadata.deleteVersion(bucket, key, versionId, LockCheck.at(now(), bypass), null));
            removed.ifPresent(ignored -> reclamation.soon());
            boolean marker = removed.map(ObjectVersion::isDeleteMarker).orElse(false);
            return new Deletion(versionId, marker, marker ? versionId : null);
        }
        Optional<VersioningConfiguration.Status> versioning = configurations.versioning(bucket);
        if (versioning.isEmpty()) {
            if (metadata.deleteObject(bucket, key).isPresent()) {
                reclamation.soon();
            }
            return Deletion.UNVERSIONED;
        }
        // A suspended bucket's marker replaces the "null" version, which Object Lock may protect.
        String markerId = versioning.get() == VersioningConfiguration.Status.ENABLED
                ? versionIds.next()
                : ObjectVersion.NULL_VERSION;
        ObjectVersion marker = new ObjectVersion(bucket, key, markerId, now(), 0, "\"\"",
                new ObjectContent.DeleteMarker(), Map.of(), Map.of(), null, List.of());
        try {
            if (metadata.putObject(marker, new Precondition.None(), LockCheck.at(now(), bypass)).isPresent()) {
                reclamation.soon();
            }
        } catch (NoSuchBucketException e) {
            throw new S3Exception(S3Error.NO_SUCH_BUCKET);
        } catch (PreconditionFailedException impossible) {
            throw new IllegalStateException("no precondition, yet it failed", impossible);
        } catch (ObjectLockedException e) {
            throw ObjectLocks.protectedVersion();
        }
        return new Deletion(null, true, markerId);
    }

    /**
     * The version an {@code x-amz-copy-source} names: its current version, or the one of its {@code
     * versionId}.
     *
     * @throws S3Exception NoSuchKey, NoSuchVersion, NoSuchBucket; InvalidArgument for a malformed
     *     version id; InvalidRequest for a delete marker named by its id
     */
    ObjectVersion copySource(CopySource source) {
        String versionId = source.versionId() == null ? null : VersionIds.parameter(source.versionId());
        return switch (lookup(source.bucket(), source.key(), versionId)) {
            case Lookup.Found found -> found.version();
            case Lookup.Marker marker when marker.named() -> throw new S3Exception(S3Error.INVALID_REQUEST,
                    "The source of a copy request may not specifically refer to a delete marker by version id.");
            case Lookup.Marker marker -> throw new S3Exception(S3Error.NO_SUCH_KEY);
        };
    }

    /**
     * The error for a copy whose source blocks were missing while it read them. Reads lease the
     * blocks they copy, so on one node this means the source version went away through another node
     * of a cluster (whose reclamation knows nothing of this node's leases), or damage. The copy
     * commits nothing either way: a source no longer stored answers as if the copy came after its
     * removal; a source replaced by another version asks the client to retry (503, which SDKs retry);
     * a source still stored as it was is damaged, and that is an internal error.
     */
    S3Exception copySourceGone(CopySource source, ObjectVersion original, NoSuchBlockException missing) {
        Optional<ObjectVersion> now = metadata.getVersion(original.bucket(), original.key(), original.versionId());
        if (now.isEmpty() || now.get().isDeleteMarker()) {
            return new S3Exception(source.versionId() == null ? S3Error.NO_SUCH_KEY : S3Error.NO_SUCH_VERSION);
        }
        if (!now.get().content().equals(original.content())) {
            return new S3Exception(S3Error.SERVICE_UNAVAILABLE,
                    "The copy source was replaced while it was being copied; retry the request.");
        }
        return new S3Exception(S3Error.INTERNAL_ERROR, "The copy source is damaged: " + missing.getMessage());
    }

    /** The current version of a key, which must not be a delete marker. */
    ObjectVersion find(String bucket, String key) {
        Optional<ObjectVersion> version = metadata.getObject(bucket, key);
        if (version.isPresent() && !version.get().isDeleteMarker()) {
            return version.get();
        }
        requireBucket(bucket);
        throw new S3Exception(S3Error.NO_SUCH_KEY);
    }

    /**
     * The version a request names: the current one without {@code versionId}, delete markers
     * included.
     *
     * @throws S3Exception NoSuchBucket, NoSuchKey (no version at all), NoSuchVersion (no version of that id)
     */
    Lookup lookup(String bucket, String key, @Nullable String versionId) {
        Optional<ObjectVersion> version = versionId == null
                ? metadata.getObject(bucket, key)
                : metadata.getVersion(bucket, key, versionId);
        if (version.isEmpty()) {
            requireBucket(bucket);
            throw new S3Exception(versionId == null ? S3Error.NO_SUCH_KEY : S3Error.NO_SUCH_VERSION);
        }
        if (version.get().isDeleteMarker()) {
            return new Lookup.Marker(version.get(), versionId != null);
        }
        return new Lookup.Found(version.get());
    }

    /**
     * The version with content a sub-resource request names ({@code ?tagging}, {@code ?acl}, ...):
     * a current delete marker is NoSuchKey, one named by its id MethodNotAllowed.
     */
    ObjectVersion target(String bucket, String key, @Nullable String versionId) {
        return switch (lookup(bucket, key, versionId)) {
            case Lookup.Found found -> found.version();
            case Lookup.Marker marker when marker.named() -> throw new S3Exception(S3Error.METHOD_NOT_ALLOWED);
            case Lookup.Marker marker -> throw new S3Exception(S3Error.NO_SUCH_KEY);
        };
    }

    BucketRecord requireBucket(String bucket) {
        return metadata.getBucket(bucket).orElseThrow(() -> new S3Exception(S3Error.NO_SUCH_BUCKET));
    }

    /**
     * The settings a write's headers ask for, checked: lock headers need a bucket with Object Lock, and
     * an ACL has to be one the bucket takes ({@link AclWrites}).
     *
     * @throws S3Exception as {@link VersionSettings#fromHeaders} and {@link AclWrites#check} do
     */
    VersionSettings settings(S3Request request, String bucket) {
        boolean lockEnabled = ObjectLocks.requested(request::header) && configurations.objectLock(bucket).isPresent();
        AclWrites.refuseGrantHeaders(configurations, bucket, request::header);
        VersionSettings settings = VersionSettings.fromHeaders(request::header, lockEnabled, now(),
                configurations::canonicalIdExists);
        AclWrites.check(configurations, bucket, settings.acl(), false);
        return settings;
    }

    /**
     * A new version of a key, ready to commit: its id as the bucket's versioning says, its lock as
     * asked or else the bucket's default retention, its tags and ACL.
     */
    ObjectVersion newVersion(String bucket, String key, Optional<VersioningConfiguration.Status> versioning, long size,
            String etag, ObjectContent stored, ObjectHeaders headers, @Nullable Checksum checksum, List<Long> partSizes,
            VersionSettings settings) {
        Instant now = now();
        String versionId = versioning.filter(status -> status == VersioningConfiguration.Status.ENABLED).isPresent()
                ? versionIds.next()
                : ObjectVersion.NULL_VERSION;
        ObjectLock lock = ObjectLocks.forNewVersion(settings.lock(), configurations.objectLock(bucket).orElse(null), now);
        return new ObjectVersion(bucket, key, versionId, now, size, etag, stored, headers.standard(), headers.user(),
                checksum, partSizes, settings.tags(), lock, settings.storedAcl(), null);
    }

    /** How a write's new content is sealed, as its headers (a browser upload: its fields) or its bucket say. */
    Optional<Sealing> sealingForWrite(S3Request request, String bucket) {
        return encryption.forWrite(request, bucket);
    }

    /** A new version whose content is sealed as {@code sealing} says, with what it stores of that. */
    static ObjectVersion sealedWith(ObjectVersion version, Optional<Sealing> sealing) {
        return sealing.map(how -> withStoredFacts(version, how.stored())).orElse(version);
    }

    /** A version with more {@linkplain ObjectHeaders#isStoredFact stored facts} among its headers. */
    static ObjectVersion withStoredFacts(ObjectVersion version, Map<String, String> facts) {
        if (facts.isEmpty()) {
            return version;
        }
        Map<String, String> headers = new java.util.HashMap<>(version.headers());
        headers.putAll(facts);
        return version.withHeaders(headers);
    }

    /** The bucket's versioning state, for writes that do not come through PutObject. */
    Optional<VersioningConfiguration.Status> versioning(String bucket) {
        return configurations.versioning(bucket);
    }

    /** Makes a version current; if that fails, its freshly written blocks are queued for freeing. */
    void commit(ObjectVersion version) {
        commit(version, new Precondition.None());
    }

    /**
     * Makes a version current if the key meets the precondition; if that fails, the version's
     * freshly written blocks are queued for freeing.
     *
     * @throws S3Exception PreconditionFailed, or NoSuchKey for If-Match on a key without an object
     */
    void commit(ObjectVersion version, Precondition precondition) {
        try {
            Optional<ObjectVersion> replaced = metadata.putObject(version, precondition);
            if (replaced.isPresent()) {
                reclamation.soon();
            }
        } catch (NoSuchBucketException e) {
            content.discard(version.content());
            throw new S3Exception(S3Error.NO_SUCH_BUCKET);
        } catch (PreconditionFailedException e) {
            content.discard(version.content());
            throw WritePreconditions.failure(precondition, metadata.getObject(version.bucket(), version.key()));
        } catch (MetadataUnavailableException e) {
            // Outcome unknown: a replica may hold the version and spread it later, so its blocks
            // must stay; if it never does, they are orphans.
            throw e;
        } catch (RuntimeException e) {
            content.discard(version.content());
            throw e;
        }
    }

    /**
     * Adds {@code x-amz-version-id} for a version of a bucket: always for an id of its own, and
     * {@code null} when the bucket has versioning configured (Enabled or Suspended).
     */
    void putVersionId(Map<String, String> headers, String bucket, String versionId) {
        if (!versionId.equals(ObjectVersion.NULL_VERSION)) {
            headers.put(VERSION_ID_HEADER, versionId);
        } else {
            putVersionId(headers, versionId, configurations.versioning(bucket));
        }
    }

    static void putVersionId(Map<String, String> headers, String versionId,
            Optional<VersioningConfiguration.Status> versioning) {
        if (!versionId.equals(ObjectVersion.NULL_VERSION) || versioning.isPresent()) {
            headers.put(VERSION_ID_HEADER, versionId);
        }
    }

    /** Adds {@code x-amz-copy-source-version-id} when the source bucket has versions. */
    void putCopySourceVersionId(Map<String, String> headers, String sourceBucket, String versionId) {
        Map<String, String> sourceHeaders = new LinkedHashMap<>();
        putVersionId(sourceHeaders, sourceBucket, versionId);
        if (sourceHeaders.containsKey(VERSION_ID_HEADER)) {
            headers.put("x-amz-copy-source-version-id", versionId);
        }
    }

    Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    static long sizeOf(ObjectContent stored) {
        return switch (stored) {
            case ObjectContent.Inline inline -> inline.data().length;
            case ObjectContent.Blocks blocks -> blocks.blocks().stream().mapToLong(BlockRef::size).sum();
            case ObjectContent.DeleteMarker marker -> 0;
        };
    }

    /**
     * GET, HEAD or GetObjectAttributes of a delete marker: 404 NoSuchKey when it is the current
     * version, 405 MethodNotAllowed when named by its id; both say {@code x-amz-delete-marker: true}.
     */
    private S3Response markerResponse(S3Request request, boolean headOnly, Lookup.Marker marker) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(DELETE_MARKER_HEADER, "true");
        headers.put(VERSION_ID_HEADER, marker.marker().versionId());
        S3Error error = S3Error.NO_SUCH_KEY;
        if (marker.named()) {
            error = S3Error.METHOD_NOT_ALLOWED;
            headers.put("Allow", "DELETE");
            headers.put("Last-Modified", HttpDates.http(marker.marker().lastModified()));
        }
        if (headOnly) {
            return S3Response.empty(error.status(), headers);
        }
        String bucket = request.requireBucket();
        String key = request.requireKey();
        byte[] document = documents.deleteMarkerError(error, request.method(), "/" + bucket + "/" + key, bucket, key,
                request.requestId());
        return S3Response.xml(error.status(), headers, document);
    }

    /** {@code x-amz-max-parts} and {@code x-amz-part-number-marker} (also accepted as query parameters). */
    private static int partsParameter(S3Request request, String name, int defaultValue) {
        String value = request.header("x-amz-" + name);
        if (value == null) {
            value = request.parameter(name);
        }
        if (value == null) {
            return defaultValue;
        }
        try {
            int parsed = Integer.parseInt(value.strip());
            if (parsed >= 0) {
                return parsed;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new S3Exception(S3Error.INVALID_ARGUMENT, "Provided " + name + " not an integer or within integer range");
    }

    /** The byte range of {@code ?partNumber=N}: a part of a multipart object, or part 1 of any other. */
    private static Optional<ByteRange> partRange(S3Request request, ObjectVersion version) {
        String parameter = request.parameter("partNumber");
        if (parameter == null) {
            return Optional.empty();
        }
        int partNumber;
        try {
            partNumber = Integer.parseInt(parameter);
        } catch (NumberFormatException e) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Part number must be an integer between 1 and 10000, inclusive");
        }
        List<Long> sizes = version.partSizes().isEmpty() ? List.of(version.size()) : version.partSizes();
        if (partNumber < 1 || partNumber > sizes.size()) {
            throw new S3Exception(S3Error.INVALID_PART_NUMBER, "The requested partnumber is not satisfiable");
        }
        long first = 0;
        for (int i = 0; i < partNumber - 1; i++) {
            first += sizes.get(i);
        }
        long partSize = sizes.get(partNumber - 1);
        if (partSize == 0) {
            return Optional.empty();
        }
        return Optional.of(new ByteRange(first, first + partSize - 1));
    }
}
