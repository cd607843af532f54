package dev.hangar.s3api.xml;

import java.time.Instant;
import java.util.Objects;

/**
 * One {@code Upload} of ListMultipartUploads: {@code Key}, {@code UploadId}, {@code Initiator},
 * {@code Owner}, {@code StorageClass}, {@code Initiated}.
 *
 * @param key the key as it goes on the wire: already url-encoded when the request asked for it
 */
public record UploadEntry(
        String key, String uploadId, Owner initiator, Owner owner, String storageClass, Instant initiated) {

    public UploadEntry {
        Objects.requireNonNull(key, "key is required");
        Objects.requireNonNull(uploadId, "upload id is required");
        Objects.requireNonNull(initiator, "initiator is required");
        Objects.requireNonNull(owner, "owner is required");
        Objects.requireNonNull(storageClass, "storage class is required");
        Objects.requireNonNull(initiated, "initiation time is required");
    }
}
