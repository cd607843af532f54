package dev.hangar.metadata;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * An access key pair, when it was created, and what it may do.
 *
 * @param root a root key may do everything, in every bucket; {@code buckets} and {@code createBuckets} do
 *     not apply to it
 * @param buckets what a non-root key may do, by bucket name; a bucket it does not name is closed
 *     to it
 * @param createBuckets whether a non-root key may create buckets (it then owns them); false unless the
 *     administrator grants it, also for every key stored before this permission existed
 */
public record AccessKey(
        String accessKeyId,
        String secretKey,
        Instant created,
        boolean root,
        Map<String, BucketPermission> buckets,
        boolean createBuckets) {
    public AccessKey {
        if (accessKeyId == null || accessKeyId.isEmpty() || secretKey == null || secretKey.isEmpty()) {
            throw new IllegalArgumentException("access key id and secret are required");
        }
        buckets = Map.copyOf(buckets);
    }

    /** A key with these bucket permissions that may not create buckets. */
    public AccessKey(
            String accessKeyId, String secretKey, Instant created, boolean root, Map<String, BucketPermission> buckets) {
        this(accessKeyId, secretKey, created, root, buckets, false);
    }

    /**
     * A ROOT key: allowed everything, in every bucket. This is the key the server is configured
     * with or generates at first start, and what every key stored before permissions existed is
     * read back as.
     */
    public AccessKey(String accessKeyId, String secretKey, Instant created) {
        this(accessKeyId, secretKey, created, true, Map.of());
    }

    /** This key with another secret: the same secret sealed for storage, or opened after it. */
    public AccessKey withSecretKey(String secret) {
        return new AccessKey(accessKeyId, secret, created, root, buckets, createBuckets);
    }

    /** Without the secret: a record would print every component, and keys end up in logs. */
    @Override
    public String toString() {
        return "AccessKey[accessKeyId=" + accessKeyId + ", created=" + created + ", root=" + root + ", buckets="
                + buckets + ", createBuckets=" + createBuckets + "]";
    }

    /** Whether this key may create buckets: the root key always, another if it was granted that. */
    public boolean mayCreateBuckets() {
        return root || createBuckets;
    }

    /** This key with {@code permission} on {@code bucket}, or with nothing there if it is null. */
    public AccessKey withBucketPermission(String bucket, @Nullable BucketPermission permission) {
        Map<String, BucketPermission> changed = new HashMap<>(buckets);
        if (permission == null) {
            changed.remove(bucket);
        } else {
            changed.put(bucket, permission);
        }
        return new AccessKey(accessKeyId, secretKey, created, root, changed, createBuckets);
    }

    /** This key allowed, or not, to create buckets. */
    public AccessKey withCreateBuckets(boolean allowed) {
        return new AccessKey(accessKeyId, secretKey, created, root, buckets, allowed);
    }
}
