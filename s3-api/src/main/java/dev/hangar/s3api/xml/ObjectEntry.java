package dev.hangar.s3api.xml;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One {@code Contents} element of a listing: {@code Key}, {@code LastModified}, {@code ETag},
 * {@code Size}, {@code Owner} when present, {@code StorageClass} (the ListBucketResult schema's
 * order, which real S3 keeps: the owner sits between the size and the storage class).
 *
 * @param key the key as it goes on the wire: already url-encoded when the request asked for it
 * @param etag the ETag with its quotes, as in the ETag header
 * @param owner the owner, or null to leave it out (ListObjectsV2 without {@code fetch-owner=true})
 */
public record ObjectEntry(
        String key, Instant lastModified, String etag, long size, @Nullable Owner owner, String storageClass) {

    public ObjectEntry {
        Objects.requireNonNull(key, "key is required");
        Objects.requireNonNull(lastModified, "last modified is required");
        Objects.requireNonNull(etag, "etag is required");
        Objects.requireNonNull(storageClass, "storage class is required");
        if (size < 0) {
            throw new IllegalArgumentException("object size must not be negative: " + size);
        }
    }
}
