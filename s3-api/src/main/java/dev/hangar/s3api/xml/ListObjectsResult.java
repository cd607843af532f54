package dev.hangar.s3api.xml;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * ListObjects (version 1), root {@code ListBucketResult}. Rendered as {@code Name}, {@code Prefix},
 * {@code Marker}, {@code NextMarker}?, {@code MaxKeys}, {@code Delimiter}?, {@code EncodingType}?,
 * {@code IsTruncated}, every {@code Contents}, then every {@code CommonPrefixes}. That is the 2006
 * ListBucketResult schema's sequence, with {@code EncodingType} where real S3 puts it, just before
 * {@code IsTruncated}.
 *
 * <p>Every string that holds a key (prefix, marker, next marker, delimiter, keys, common prefixes)
 * is rendered as given: when the request asked for {@code encoding-type=url}, pass them through
 * {@link S3Xml#urlEncodeKey(String)} first and set {@code encodingType} to {@code "url"}.
 *
 * @param prefix the echoed prefix, empty when none was sent (S3 always sends the element)
 * @param marker the echoed marker, empty when none was sent (S3 always sends the element)
 * @param nextMarker where the next page starts; S3 sends it only for a truncated page of a listing
 *     with a delimiter (without one, clients resume from the last key), so it is refused otherwise
 * @param delimiter the echoed delimiter, or null to leave the element out (S3 leaves out an empty one)
 * @param encodingType {@code "url"} when the request asked for it, otherwise null
 */
public record ListObjectsResult(
        String name,
        String prefix,
        String marker,
        @Nullable String nextMarker,
        int maxKeys,
        @Nullable String delimiter,
        @Nullable String encodingType,
        boolean isTruncated,
        List<ObjectEntry> contents,
        List<String> commonPrefixes) {

    public ListObjectsResult {
        Objects.requireNonNull(name, "bucket name is required");
        Objects.requireNonNull(prefix, "prefix is required; pass an empty string when none was sent");
        Objects.requireNonNull(marker, "marker is required; pass an empty string when none was sent");
        if (nextMarker != null && !(isTruncated && delimiter != null)) {
            throw new IllegalArgumentException("S3 sends NextMarker only on a truncated listing with a delimiter");
        }
        if (maxKeys < 0) {
            throw new IllegalArgumentException("max keys must not be negative: " + maxKeys);
        }
        contents = List.copyOf(contents);
        commonPrefixes = List.copyOf(commonPrefixes);
    }
}
