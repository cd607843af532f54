package dev.hangar.s3api.xml;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * ListObjectVersions, root {@code ListVersionsResult}. Rendered as {@code Name}, {@code Prefix},
 * {@code KeyMarker}, {@code VersionIdMarker}, {@code NextKeyMarker}?, {@code NextVersionIdMarker}?,
 * {@code MaxKeys}, {@code Delimiter}?, {@code EncodingType}?, {@code IsTruncated}, then every
 * {@code Version} and {@code DeleteMarker} interleaved in list order, then every {@code
 * CommonPrefixes}. That is the 2006 schema's sequence ({@code (Version | DeleteMarker)*} is one
 * choice, not two lists) and the order of the API reference's samples, which write {@code
 * <KeyMarker/>} and {@code <VersionIdMarker/>} when no marker was sent and the next markers only
 * in a truncated page; {@code EncodingType} goes just before {@code IsTruncated}, as in
 * ListObjects. The reference's "Response Syntax" block is the service model's member order.
 *
 * <p>Strings that hold keys (prefix, key markers, delimiter, keys, common prefixes) are rendered as
 * given: url-encode them first when the request asked for {@code encoding-type=url}. Version ids
 * are never encoded.
 *
 * @param prefix the echoed prefix, empty when none was sent (S3 always sends the element)
 * @param keyMarker the echoed key-marker, empty when none was sent
 * @param versionIdMarker the echoed version-id-marker, empty when none was sent
 * @param nextKeyMarker where the next page starts; present exactly when the page is truncated
 * @param nextVersionIdMarker the version where the next page starts, only on a truncated page
 *     (absent when the page ends on a common prefix)
 * @param delimiter the echoed delimiter, or null to leave the element out
 * @param encodingType {@code "url"} when the request asked for it, otherwise null
 * @param entries the versions and delete markers, in the order S3 lists them
 */
public record ListVersionsResult(
        String name,
        String prefix,
        String keyMarker,
        String versionIdMarker,
        @Nullable String nextKeyMarker,
        @Nullable String nextVersionIdMarker,
        int maxKeys,
        @Nullable String delimiter,
        @Nullable String encodingType,
        boolean isTruncated,
        List<VersionListEntry> entries,
        List<String> commonPrefixes) {

    public ListVersionsResult {
        Objects.requireNonNull(name, "bucket name is required");
        Objects.requireNonNull(prefix, "prefix is required; pass an empty string when none was sent");
        Objects.requireNonNull(keyMarker, "key marker is required; pass an empty string when none was sent");
        Objects.requireNonNull(
                versionIdMarker, "version id marker is required; pass an empty string when none was sent");
        if (isTruncated != (nextKeyMarker != null)) {
            throw new IllegalArgumentException(
                    "a truncated page needs a NextKeyMarker, and only a truncated page has one");
        }
        if (nextVersionIdMarker != null && nextKeyMarker == null) {
            throw new IllegalArgumentException("a NextVersionIdMarker goes with a NextKeyMarker");
        }
        if (maxKeys < 0) {
            throw new IllegalArgumentException("max keys must not be negative: " + maxKeys);
        }
        entries = List.copyOf(entries);
        commonPrefixes = List.copyOf(commonPrefixes);
    }
}
