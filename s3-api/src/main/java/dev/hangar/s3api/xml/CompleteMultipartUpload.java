package dev.hangar.s3api.xml;

import java.util.List;

/** A parsed CompleteMultipartUpload request: at least one part, in the order the client sent them. */
public record CompleteMultipartUpload(List<CompletedPart> parts) {
    public CompleteMultipartUpload {
        parts = List.copyOf(parts);
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("a multipart upload is completed with at least one part");
        }
    }
}
