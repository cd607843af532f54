package dev.hangar.blockstore.s3;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Where a {@link S3BlockStore} keeps its blocks: a bucket of an S3-compatible service.
 *
 * @param endpoint the service's base URI ({@code https://s3.example.com:9000}), or null for AWS's
 *     own endpoint of {@code region}
 * @param region the region requests are signed for ({@code us-east-1} for most non-AWS services)
 * @param bucket the bucket that holds the blocks; it must exist
 * @param prefix put before every block's key, usually ending in {@code /} ({@code hangar/blocks/});
 *     null or empty for none. Must not start with {@code /}
 * @param accessKey the access key id, or null (with {@code secretKey}) for the SDK's default
 *     credentials chain: environment, profile files, container or instance role
 * @param secretKey the secret key; given exactly when {@code accessKey} is
 * @param pathStyle address the bucket in the path ({@code endpoint/bucket/key}) rather than in the
 *     host name ({@code bucket.endpoint/key}); most self-hosted services need it
 */
public record S3BlockStoreConfig(
        @Nullable URI endpoint,
        String region,
        String bucket,
        String prefix,
        @Nullable String accessKey,
        @Nullable String secretKey,
        boolean pathStyle) {

    /** The longest key S3 accepts, in UTF-8 bytes. */
    private static final int MAX_KEY_BYTES = 1024;

    /** What a block adds to the prefix: {@code ab/} and the 32 hex digits of its id. */
    private static final int BLOCK_KEY_BYTES = 3 + 32;

    public S3BlockStoreConfig {
        if (endpoint != null) {
            String scheme = endpoint.getScheme() == null ? "" : endpoint.getScheme().toLowerCase(Locale.ROOT);
            if (!endpoint.isAbsolute() || !(scheme.equals("http") || scheme.equals("https"))) {
                throw new IllegalArgumentException("S3 endpoint must be an http or https URI: " + endpoint);
            }
            if (endpoint.getHost() == null) {
                throw new IllegalArgumentException("S3 endpoint has no host: " + endpoint);
            }
            if (endpoint.getRawQuery() != null || endpoint.getRawFragment() != null) {
                throw new IllegalArgumentException("S3 endpoint must not have a query or fragment: " + endpoint);
            }
        }
        if (region == null || region.isBlank()) {
            throw new IllegalArgumentException("S3 region is required");
        }
        if (bucket == null || !isBucketName(bucket)) {
            throw new IllegalArgumentException(
                    "S3 bucket name must be 3 to 63 lower-case letters, digits, dots or hyphens, starting and"
                            + " ending with a letter or digit: " + bucket);
        }
        prefix = prefix == null ? "" : prefix;
        if (prefix.startsWith("/")) {
            throw new IllegalArgumentException("S3 key prefix must not start with '/': " + prefix);
        }
        if (prefix.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES - BLOCK_KEY_BYTES) {
            throw new IllegalArgumentException(
                    "S3 key prefix is longer than " + (MAX_KEY_BYTES - BLOCK_KEY_BYTES) + " bytes");
        }
        accessKey = blankToNull(accessKey);
        secretKey = blankToNull(secretKey);
        if ((accessKey == null) != (secretKey == null)) {
            throw new IllegalArgumentException(
                    "S3 access key and secret key go together: give both, or neither for the default credentials");
        }
    }

    /** Whether the store signs with the configured keys rather than the SDK's default credentials. */
    public boolean hasStaticCredentials() {
        return accessKey != null;
    }

    /** Never shows the secret key, so that the configuration can be logged. */
    @Override
    public String toString() {
        return "S3BlockStoreConfig[endpoint=" + (endpoint == null ? "(AWS)" : endpoint)
                + ", region=" + region
                + ", bucket=" + bucket
                + ", prefix=" + prefix
                + ", accessKey=" + (accessKey == null ? "(default credentials)" : accessKey)
                + ", secretKey=" + (secretKey == null ? "(none)" : "****")
                + ", pathStyle=" + pathStyle + "]";
    }

    private static boolean isBucketName(String name) {
        if (name.length() < 3 || name.length() > 63) {
            return false;
        }
        if (!isLowerAlphanumeric(name.charAt(0)) || !isLowerAlphanumeric(name.charAt(name.length() - 1))) {
            return false;
        }
        return name.chars().allMatch(c -> isLowerAlphanumeric(c) || c == '.' || c == '-');
    }

    private static boolean isLowerAlphanumeric(int c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    }

    private static @Nullable String blankToNull(@Nullable String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
