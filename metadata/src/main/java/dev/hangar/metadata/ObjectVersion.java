package dev.hangar.metadata;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One version of an object: its content, the headers stored with it, and the sub-resources S3
 * keeps per version (tags, object lock, ACL, owner).
 *
 * @param versionId chosen by the caller: {@code "null"} ({@link #NULL_VERSION}) in a bucket that
 *     never had versioning enabled (or has it suspended), else an id unique among the versions of
 *     the key. Where the version stands among the others is decided by the store, not by this id
 * @param etag the quoted S3 ETag, e.g. {@code "\"9e10...\""} or {@code "\"...-3\""}
 * @param content the bytes, or {@link ObjectContent.DeleteMarker} for a delete marker
 * @param headers stored standard headers, lower-case names (content-type, content-encoding,
 *     content-disposition, content-language, cache-control, expires)
 * @param userMetadata {@code x-amz-meta-*} entries, names lower-case without the prefix
 * @param partSizes sizes of the parts of a multipart object, empty for a single PUT
 * @param tags the object's tag set, empty if it has none
 * @param lock retention and legal hold, null if neither was ever set
 * @param acl the ACL given when written or later, in the form the S3 API stores it (the name of a
 *     canned ACL such as {@code "public-read"}, or a grant list's document; opaque here); null
 *     means private
 * @param ownerKeyId the access key id that wrote the version, null if unknown (versions written
 *     before owners were recorded)
 */
public record ObjectVersion(
        String bucket,
        String key,
        String versionId,
        Instant lastModified,
        long size,
        String etag,
        ObjectContent content,
        Map<String, String> headers,
        Map<String, String> userMetadata,
        @Nullable Checksum checksum,
        List<Long> partSizes,
        Map<String, String> tags,
        @Nullable ObjectLock lock,
        @Nullable String acl,
        @Nullable String ownerKeyId) {

    public static final String NULL_VERSION = "null";

    public ObjectVersion {
        if (bucket == null || key == null || versionId == null || lastModified == null || etag == null
                || content == null) {
            throw new IllegalArgumentException("object version fields are required");
        }
        if (size < 0) {
            throw new IllegalArgumentException("size must not be negative");
        }
        headers = Map.copyOf(headers);
        userMetadata = Map.copyOf(userMetadata);
        partSizes = List.copyOf(partSizes);
        tags = Map.copyOf(tags);
    }

    /** A version without tags, lock, ACL or owner: the fields every version had before they existed. */
    public ObjectVersion(
            String bucket,
            String key,
            String versionId,
            Instant lastModified,
            long size,
            String etag,
            ObjectContent content,
            Map<String, String> headers,
            Map<String, String> userMetadata,
            @Nullable Checksum checksum,
            List<Long> partSizes) {
        this(bucket, key, versionId, lastModified, size, etag, content, headers, userMetadata, checksum, partSizes,
                Map.of(), null, null, null);
    }

    /** Whether this version is a delete marker: it says the key was deleted and has no bytes. */
    public boolean isDeleteMarker() {
        return content instanceof ObjectContent.DeleteMarker;
    }

    public ObjectVersion withVersionId(String newVersionId) {
        return new ObjectVersion(bucket, key, newVersionId, lastModified, size, etag, content, headers, userMetadata,
                checksum, partSizes, tags, lock, acl, ownerKeyId);
    }

    public ObjectVersion withHeaders(Map<String, String> newHeaders) {
        return new ObjectVersion(bucket, key, versionId, lastModified, size, etag, content, newHeaders, userMetadata,
                checksum, partSizes, tags, lock, acl, ownerKeyId);
    }

    public ObjectVersion withTags(Map<String, String> newTags) {
        return new ObjectVersion(bucket, key, versionId, lastModified, size, etag, content, headers, userMetadata,
                checksum, partSizes, newTags, lock, acl, ownerKeyId);
    }

    public ObjectVersion withLock(@Nullable ObjectLock newLock) {
        return new ObjectVersion(bucket, key, versionId, lastModified, size, etag, content, headers, userMetadata,
                checksum, partSizes, tags, newLock, acl, ownerKeyId);
    }

    public ObjectVersion withAcl(@Nullable String newAcl) {
        return new ObjectVersion(bucket, key, versionId, lastModified, size, etag, content, headers, userMetadata,
                checksum, partSizes, tags, lock, newAcl, ownerKeyId);
    }

    public ObjectVersion withOwnerKeyId(@Nullable String newOwnerKeyId) {
        return new ObjectVersion(bucket, key, versionId, lastModified, size, etag, content, headers, userMetadata,
                checksum, partSizes, tags, lock, acl, newOwnerKeyId);
    }
}
