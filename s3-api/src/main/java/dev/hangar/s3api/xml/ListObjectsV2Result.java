package dev.hangar.s3api.xml;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * ListObjectsV2, root {@code ListBucketResult}. Rendered as {@code Name}, {@code Prefix}, {@code
 * StartAfter}?, {@code ContinuationToken}?, {@code NextContinuationToken}?, {@code KeyCount},
 * {@code MaxKeys}, {@code Delimiter}?, {@code EncodingType}?, {@code IsTruncated}, every {@code
 * Contents}, then every {@code CommonPrefixes}. That is the order real S3 sends and the one in the
 * API reference's examples; the reference's "Response Syntax" block (IsTruncated and Contents
 * first) is the service model's member order, not the wire's. {@code KeyCount} is computed: the
 * number of contents plus the number of common prefixes, which is what S3 counts.
 *
 * <p>As in {@link ListObjectsResult}, strings that hold keys are rendered as given; url-encode them
 * first when the request asked for {@code encoding-type=url}. Continuation tokens are opaque and are
 * not encoded.
 *
 * @param prefix the echoed prefix, empty when none was sent (S3 always sends the element)
 * @param startAfter the echoed start-after, or null; S3 echoes it only when no continuation token
 *     was sent
 * @param continuationToken the echoed continuation token, or null when none was sent
 * @param nextContinuationToken the token for the next page: present exactly when the page is
 *     truncated
 * @param delimiter the echoed delimiter, or null to leave the element out
 * @param encodingType {@code "url"} when the request asked for it, otherwise null
 * @param contents the objects; give each an {@link Owner} only when the request said {@code
 *     fetch-owner=true}
 */
public record ListObjectsV2Result(
        String name,
        String prefix,
        @Nullable String startAfter,
        @Nullable String continuationToken,
        @Nullable String nextContinuationToken,
        int maxKeys,
        @Nullable String delimiter,
        @Nullable String encodingType,
        boolean isTruncated,
        List<ObjectEntry> contents,
        List<String> commonPrefixes) {

    public ListObjectsV2Result {
        Objects.requireNonNull(name, "bucket name is required");
        Objects.requireNonNull(prefix, "prefix is required; pass an empty string when none was sent");
        if (isTruncated != (nextContinuationToken != null)) {
            throw new IllegalArgumentException(
                    "a truncated page needs a NextContinuationToken, and only a truncated page has one");
        }
        if (maxKeys < 0) {
            throw new IllegalArgumentException("max keys must not be negative: " + maxKeys);
        }
        contents = List.copyOf(contents);
        commonPrefixes = List.copyOf(commonPrefixes);
    }

    /** What S3 reports as {@code KeyCount}: objects and common prefixes together. */
    public int keyCount() {
        return contents.size() + commonPrefixes.size();
    }
}
