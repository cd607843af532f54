package dev.hangar.s3api.xml;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * ListBuckets. Rendered as {@code Owner}, {@code Buckets}, then {@code Prefix} and {@code
 * ContinuationToken} when present: the order real S3 sends (the API reference's syntax block lists
 * Buckets first, alphabetically).
 *
 * @param prefix the echoed {@code prefix} parameter, or null when none was sent
 * @param continuationToken the token for the next page, or null when this page is the last
 */
public record ListAllMyBucketsResult(
        Owner owner, List<BucketEntry> buckets, @Nullable String prefix, @Nullable String continuationToken) {

    public ListAllMyBucketsResult {
        Objects.requireNonNull(owner, "owner is required");
        buckets = List.copyOf(buckets);
    }

    /** Every bucket in one page, the usual answer. */
    public ListAllMyBucketsResult(Owner owner, List<BucketEntry> buckets) {
        this(owner, buckets, null, null);
    }
}
