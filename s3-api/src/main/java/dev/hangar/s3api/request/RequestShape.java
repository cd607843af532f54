package dev.hangar.s3api.request;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What every request must look like before it is routed: a bucket name that some bucket could have, a key
 * and query parameters without NUL. Requests that fail are answered with the S3 error that names the
 * problem, before any bucket, key or upload is looked up: the storage layers take such names for
 * programming errors, and a name no bucket or key can have would otherwise surface as a 500.
 */
final class RequestShape {
    /**
     * The characters and length of any bucket name S3 ever allowed (its legacy us-east-1 rules, wider than
     * today's), so that a name created elsewhere is answered NoSuchBucket rather than refused here.
     */
    private static final Pattern POSSIBLE_BUCKET = Pattern.compile("[A-Za-z0-9._-]{1,255}");

    private RequestShape() {}

    /**
     * @throws S3Exception InvalidBucketName for a bucket name no bucket can have (empty, as in {@code
     *     GET //key}, or with characters outside letters, digits, {@code . _ -}); InvalidArgument for a key or
     *     a query parameter holding NUL, which no stored name can hold either
     */
    static void check(S3Request request) {
        String bucket = request.bucket();
        if (bucket != null && !POSSIBLE_BUCKET.matcher(bucket).matches()) {
            throw new S3Exception(S3Error.INVALID_BUCKET_NAME, bucket.isEmpty()
                    ? "The specified bucket is not valid: the bucket name is empty."
                    : "The specified bucket is not valid: bucket names contain only letters, digits, '.', '_' and '-'.");
        }
        String key = request.key();
        if (key != null && key.indexOf('\0') >= 0) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Object keys must not contain the NUL character.");
        }
        for (Map.Entry<String, List<String>> parameter : request.query().entrySet()) {
            if (holdsNul(parameter.getKey()) || parameter.getValue().stream().anyMatch(RequestShape::holdsNul)) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT,
                        "The query parameter " + printable(parameter.getKey()) + " must not contain the NUL character.");
            }
        }
    }

    private static boolean holdsNul(String text) {
        return text.indexOf('\0') >= 0;
    }

    /** A parameter name as an error message can show it: NUL written as {@code \0}. */
    private static String printable(String name) {
        return "'" + name.replace("\0", "\\0") + "'";
    }
}
