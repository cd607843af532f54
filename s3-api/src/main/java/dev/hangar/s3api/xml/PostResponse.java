package dev.hangar.s3api.xml;

import java.util.Objects;

/**
 * The answer to a browser upload (POST Object) that asked for {@code success_action_status=201}:
 * root {@code PostResponse} in no namespace, as every recorded S3 answer has it, holding {@code
 * Location}, {@code Bucket}, {@code Key}, {@code ETag}. No AWS page shows this document; the order
 * and form are those of S3's answers captured in public issue trackers.
 *
 * @param location the object's URL, the key percent-encoded in it ({@code /} included, as S3 does)
 * @param key the key as stored, not encoded
 * @param etag the ETag with its quotes, as in the ETag header
 */
public record PostResponse(String location, String bucket, String key, String etag) {
    public PostResponse {
        Objects.requireNonNull(location, "location is required");
        Objects.requireNonNull(bucket, "bucket is required");
        Objects.requireNonNull(key, "key is required");
        Objects.requireNonNull(etag, "etag is required");
    }
}
