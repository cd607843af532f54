package dev.hangar.s3api.xml;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * ListMultipartUploads. Rendered as {@code Bucket}, {@code KeyMarker}, {@code UploadIdMarker},
 * {@code NextKeyMarker}, {@code NextUploadIdMarker}, {@code Delimiter}?, {@code Prefix}?, {@code
 * MaxUploads}, {@code EncodingType}?, {@code IsTruncated}, every {@code Upload}, then every {@code
 * CommonPrefixes}. Real S3 sends the four markers always, empty when there is nothing to say, and
 * the delimiter before the prefix (as in the API reference's example).
 *
 * <p>Key markers, the delimiter, the prefix, upload keys and common prefixes are rendered as given:
 * url-encode them first when the request asked for {@code encoding-type=url}.
 *
 * @param keyMarker the echoed key-marker, empty when none was sent
 * @param uploadIdMarker the echoed upload-id-marker, empty when none was sent
 * @param nextKeyMarker where the next page starts, empty when this page is the last
 * @param nextUploadIdMarker where the next page starts, empty when this page is the last
 * @param delimiter the echoed delimiter, or null to leave the element out
 * @param prefix the echoed prefix, or null to leave the element out
 * @param encodingType {@code "url"} when the request asked for it, otherwise null
 */
public record ListMultipartUploadsResult(
        String bucket,
        String keyMarker,
        String uploadIdMarker,
        String nextKeyMarker,
        String nextUploadIdMarker,
        @Nullable String delimiter,
        @Nullable String prefix,
        int maxUploads,
        @Nullable String encodingType,
        boolean isTruncated,
        List<UploadEntry> uploads,
        List<String> commonPrefixes) {

    public ListMultipartUploadsResult {
        Objects.requireNonNull(bucket, "bucket is required");
        Objects.requireNonNull(keyMarker, "key marker is required; pass an empty string when none was sent");
        Objects.requireNonNull(uploadIdMarker, "upload id marker is required; pass an empty string when none was sent");
        Objects.requireNonNull(nextKeyMarker, "next key marker is required; pass an empty string on the last page");
        Objects.requireNonNull(
                nextUploadIdMarker, "next upload id marker is required; pass an empty string on the last page");
        if (maxUploads < 0) {
            throw new IllegalArgumentException("max uploads must not be negative: " + maxUploads);
        }
        uploads = List.copyOf(uploads);
        commonPrefixes = List.copyOf(commonPrefixes);
    }
}
