package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** AWS's general-purpose bucket naming rules; public for the administration API, which names buckets too. */
public final class BucketNames {
    private static final Pattern ALLOWED = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
    private static final Pattern IP_ADDRESS = Pattern.compile("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");

    private BucketNames() {}

    static void validate(String name) {
        String problem = problem(name);
        if (problem != null) {
            throw new S3Exception(S3Error.INVALID_BUCKET_NAME, "The specified bucket is not valid: " + problem);
        }
    }

    /** What is wrong with {@code name} as a bucket name, or null if nothing is. */
    public static @Nullable String problem(String name) {
        if (name.length() < 3 || name.length() > 63) {
            return "bucket names must be between 3 and 63 characters long";
        }
        if (!ALLOWED.matcher(name).matches()) {
            return "bucket names may contain only lower-case letters, digits, dots and hyphens, "
                    + "and must begin and end with a letter or digit";
        }
        if (name.contains("..") || name.contains(".-") || name.contains("-.")) {
            return "bucket names must not contain two adjacent periods or a period next to a hyphen";
        }
        if (IP_ADDRESS.matcher(name).matches()) {
            return "bucket names must not be formatted as an IP address";
        }
        for (String prefix : new String[] {"xn--", "sthree-", "amzn-s3-demo-"}) {
            if (name.startsWith(prefix)) {
                return "bucket names must not start with '" + prefix + "'";
            }
        }
        for (String suffix : new String[] {"-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3"}) {
            if (name.endsWith(suffix)) {
                return "bucket names must not end with '" + suffix + "'";
            }
        }
        return null;
    }
}
