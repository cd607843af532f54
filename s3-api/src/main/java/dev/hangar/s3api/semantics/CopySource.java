package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.Addressing;
import org.jspecify.annotations.Nullable;

/** The object an {@code x-amz-copy-source} header names: {@code [/]bucket/key[?versionId=id]}, URL-encoded. */
record CopySource(String bucket, String key, @Nullable String versionId) {

    static CopySource parse(@Nullable String header) {
        if (header == null || header.isEmpty()) {
            throw invalid();
        }
        String value = header.startsWith("/") ? header.substring(1) : header;
        String versionId = null;
        int query = value.indexOf('?');
        if (query >= 0) {
            String parameters = value.substring(query + 1);
            value = value.substring(0, query);
            for (String parameter : parameters.split("&")) {
                if (parameter.startsWith("versionId=")) {
                    versionId = parameter.substring("versionId=".length());
                }
            }
        }
        int slash = value.indexOf('/');
        if (slash <= 0 || slash == value.length() - 1) {
            throw invalid();
        }
        String bucket = decode(value.substring(0, slash));
        String key = decode(value.substring(slash + 1));
        if (bucket.indexOf('\0') >= 0 || key.indexOf('\0') >= 0) {
            // No bucket or key holds NUL, and the metadata layers refuse to look one up.
            throw new S3Exception(S3Error.INVALID_ARGUMENT,
                    "The copy source's bucket and key must not contain the NUL character.");
        }
        return new CopySource(bucket, key, versionId);
    }

    /** As a path is decoded: '+' is a literal plus, and malformed UTF-8 is refused, not replaced. */
    private static String decode(String encoded) {
        try {
            return Addressing.decodePath(encoded);
        } catch (S3Exception e) {
            throw invalid();
        }
    }

    private static S3Exception invalid() {
        return new S3Exception(S3Error.INVALID_ARGUMENT,
                "Copy Source must mention the source bucket and key: sourcebucket/sourcekey");
    }
}
