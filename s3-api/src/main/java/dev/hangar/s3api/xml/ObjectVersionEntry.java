package dev.hangar.s3api.xml;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One {@code Version} of ListObjectVersions: {@code Key}, {@code VersionId}, {@code IsLatest},
 * {@code LastModified}, {@code ETag}, {@code ChecksumAlgorithm} and {@code ChecksumType} when
 * present, {@code Size}, {@code Owner} when present, {@code StorageClass}. The first five and the
 * last three are the 2006 schema's VersionEntry sequence, which real S3 keeps (Owner between Size
 * and StorageClass, as in a listing's Contents); the checksum elements come between ETag and Size,
 * which is where S3 has put them in listings since it began sending them (the API reference's
 * member list, alphabetical, is no guide to the wire).
 *
 * @param etag the ETag with its quotes
 * @param checksumAlgorithm the algorithm of the object's additional checksum, such as {@code
 *     CRC64NVME}, or null when it has none
 * @param checksumType {@code FULL_OBJECT} or {@code COMPOSITE} beside an algorithm, or null
 * @param owner the owner, or null to leave it out
 */
public record ObjectVersionEntry(
        String key,
        String versionId,
        boolean isLatest,
        Instant lastModified,
        String etag,
        @Nullable String checksumAlgorithm,
        @Nullable String checksumType,
        long size,
        @Nullable Owner owner,
        String storageClass)
        implements VersionListEntry {

    public ObjectVersionEntry {
        Objects.requireNonNull(key, "key is required");
        Objects.requireNonNull(versionId, "version id is required; the null version is \"null\"");
        Objects.requireNonNull(lastModified, "last modified is required");
        Objects.requireNonNull(etag, "etag is required");
        Objects.requireNonNull(storageClass, "storage class is required");
        if (size < 0) {
            throw new IllegalArgumentException("object size must not be negative: " + size);
        }
        if (checksumType != null && checksumAlgorithm == null) {
            throw new IllegalArgumentException("a checksum type goes with a checksum algorithm");
        }
    }

    /** A version without an additional checksum. */
    public ObjectVersionEntry(
            String key,
            String versionId,
            boolean isLatest,
            Instant lastModified,
            String etag,
            long size,
            @Nullable Owner owner,
            String storageClass) {
        this(key, versionId, isLatest, lastModified, etag, null, null, size, owner, storageClass);
    }
}
