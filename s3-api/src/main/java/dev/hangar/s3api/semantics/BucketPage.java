package dev.hangar.s3api.semantics;

import dev.hangar.metadata.BucketRecord;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.S3Request;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of ListBuckets, as its 2024 parameters select it: {@code prefix} and {@code bucket-region}
 * filter the buckets, {@code max-buckets} (1 to 10,000) bounds the page, and {@code continuation-token}
 * resumes after the last bucket of the previous page. Without {@code max-buckets} every bucket comes in
 * one page, as S3 answers a client that does not paginate. Buckets come in name order.
 *
 * @param buckets the buckets of this page
 * @param prefix the {@code prefix} parameter, to echo; null when none was sent
 * @param continuationToken the token for the next page; null when this page is the last
 */
record BucketPage(List<BucketRecord> buckets, @Nullable String prefix, @Nullable String continuationToken) {
    /** The largest {@code max-buckets} S3 takes. */
    static final int MAX_BUCKETS = 10_000;

    BucketPage {
        buckets = List.copyOf(buckets);
    }

    /**
     * Selects the page the request asks for from every bucket the caller may see.
     *
     * @throws S3Exception InvalidArgument for a {@code max-buckets} that is not an integer from 1 to 10,000,
     *     or a continuation token this server did not give
     */
    static BucketPage of(List<BucketRecord> visible, S3Request request) {
        String prefix = request.parameter("prefix");
        String region = request.parameter("bucket-region");
        String token = request.parameter("continuation-token");
        int maxBuckets = maxBuckets(request.parameter("max-buckets"));
        String after = token == null ? null : Listings.resumeAfter(token);
        List<BucketRecord> selected = visible.stream()
                .filter(bucket -> prefix == null || bucket.name().startsWith(prefix))
                .filter(bucket -> region == null || region.equals(bucket.region()))
                .filter(bucket -> after == null || bucket.name().compareTo(after) > 0)
                .sorted(Comparator.comparing(BucketRecord::name))
                .toList();
        if (selected.size() <= maxBuckets) {
            return new BucketPage(selected, prefix, null);
        }
        List<BucketRecord> page = selected.subList(0, maxBuckets);
        return new BucketPage(page, prefix, Listings.continuationToken(page.getLast().name()));
    }

    private static int maxBuckets(@Nullable String value) {
        if (value == null) {
            return Integer.MAX_VALUE;
        }
        try {
            int parsed = Integer.parseInt(value);
            if (parsed >= 1 && parsed <= MAX_BUCKETS) {
                return parsed;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new S3Exception(S3Error.INVALID_ARGUMENT,
                "Argument max-buckets must be an integer between 1 and " + MAX_BUCKETS + ".");
    }
}
