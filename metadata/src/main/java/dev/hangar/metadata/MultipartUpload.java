package dev.hangar.metadata;

import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A multipart upload in progress: what CreateMultipartUpload said about the object to be.
 *
 * @param uploadId sorts in initiation order (time-based prefix), so that listings of uploads of
 *     one key come out oldest first as in S3
 * @param checksumAlgorithm the {@code x-amz-checksum-algorithm} given at creation, if any
 */
public record MultipartUpload(
        String bucket,
        String key,
        String uploadId,
        Instant initiated,
        Map<String, String> headers,
        Map<String, String> userMetadata,
        @Nullable String checksumAlgorithm) {
    public MultipartUpload {
        if (bucket == null || key == null || uploadId == null || initiated == null) {
            throw new IllegalArgumentException("upload fields are required");
        }
        headers = Map.copyOf(headers);
        userMetadata = Map.copyOf(userMetadata);
    }
}
