package dev.hangar.metadata;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One version of an object.
 *
 * @param versionId {@code "null"} until versioning exists; records are already keyed to hold many
 * @param etag the quoted S3 ETag, e.g. {@code "\"9e10...\""} or {@code "\"...-3\""}
 * @param headers stored standard headers, lower-case names (content-type, content-encoding,
 *     content-disposition, content-language, cache-control, expires)
 * @param userMetadata {@code x-amz-meta-*} entries, names lower-case without the prefix
 * @param partSizes sizes of the parts of a multipart object, empty for a single PUT
 */
public record ObjectVersion(
        String bucket,
        String key,
        String versionId,
        Instant lastModified,
        long size,
        String etag,
        ObjectContent content,
        Map<String, String> headers,
        Map<String, String> userMetadata,
        @Nullable Checksum checksum,
        List<Long> partSizes) {

    public static final String NULL_VERSION = "null";

    public ObjectVersion {
        if (bucket == null || key == null || versionId == null || lastModified == null || etag == null
                || content == null) {
            throw new IllegalArgumentException("object version fields are required");
        }
        if (size < 0) {
            throw new IllegalArgumentException("size must not be negative");
        }
        headers = Map.copyOf(headers);
        userMetadata = Map.copyOf(userMetadata);
        partSizes = List.copyOf(partSizes);
    }
}
