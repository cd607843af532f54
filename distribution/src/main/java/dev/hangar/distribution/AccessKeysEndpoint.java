package dev.hangar.distribution;

import dev.hangar.metadata.command.AccessKeyChange;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketPermission;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.s3api.semantics.BucketNames;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The access keys, administered on the management port ({@code /actuator/accesskeys}): list them, create one,
 * set what one may do in a bucket, revoke one. Secrets are shown once, in the answer that creates the key, and
 * never listed. The root key is listed, but has no bucket permissions (it may do everything) and cannot be
 * revoked here.
 *
 * <p>A non-root key may do in a bucket what it was granted: {@code read} (list, get), {@code write} (put, delete,
 * multipart), {@code owner} (the bucket's configurations, policy and ACLs, deleting it). A key may create buckets
 * only if granted {@code createBuckets} (false unless set, so a new key can do nothing until it is granted
 * something); a key that creates a bucket is granted all three on it. Changes take effect on the next request.
 */
@Endpoint(id = "accesskeys")
public class AccessKeysEndpoint {
    static final String KEY_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    static final String SECRET_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    static final String KEY_PREFIX = "HK";
    static final int KEY_RANDOM_LENGTH = 18;
    static final int SECRET_LENGTH = 40;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final MetadataStore metadata;
    private final AccessKey root;
    private final Clock clock;
    private final SecretSeal seal;

    AccessKeysEndpoint(MetadataStore metadata, AccessKey root, Clock clock, SecretSeal seal) {
        this.seal = seal;
        this.metadata = metadata;
        this.root = root;
        this.clock = clock;
    }

    /** One key as listed: never its secret. */
    public record KeyDescription(String id, String created, boolean root, Map<String, BucketPermission> buckets,
            boolean createBuckets) {}

    /** A key just created: the only time its secret is shown. */
    public record CreatedKey(String id, String secret, String created, boolean root,
            Map<String, BucketPermission> buckets, boolean createBuckets) {}

    /** Every key. */
    public record KeyList(List<KeyDescription> keys) {}

    /** Why a request was refused. */
    public record Failure(String error) {}

    /** Every key by id, the root key included. */
    @ReadOperation
    public KeyList keys() {
        List<KeyDescription> keys = new ArrayList<>();
        boolean rootStored = false;
        for (AccessKey key : metadata.listAccessKeys()) {
            rootStored |= key.accessKeyId().equals(root.accessKeyId());
            keys.add(describe(key));
        }
        if (!rootStored) {
            keys.add(describe(root));
        }
        keys.sort((first, second) -> first.id().compareTo(second.id()));
        return new KeyList(keys);
    }

    /** One key; 404 if there is none of that id. */
    @ReadOperation
    public WebEndpointResponse<Object> key(@Selector String id) {
        return find(id)
                .<WebEndpointResponse<Object>>map(key -> new WebEndpointResponse<>(describe(key)))
                .orElseGet(() -> notFound(id));
    }

    /**
     * Creates a key with a fresh id ({@code HK} and 18 upper-case letters or digits) and a 40-character secret,
     * optionally with a permission on one bucket right away.
     *
     * @param bucket a bucket to grant a permission on, or null for none
     * @param read with {@code bucket}: may list and read
     * @param write with {@code bucket}: may write and delete
     * @param owner with {@code bucket}: may change the bucket's configurations and delete it
     * @param createBuckets whether the key may create buckets; false when absent
     */
    @WriteOperation
    public WebEndpointResponse<Object> create(@Nullable String bucket, @Nullable Boolean read, @Nullable Boolean write,
            @Nullable Boolean owner, @Nullable Boolean createBuckets) {
        if (bucket == null && (read != null || write != null || owner != null)) {
            return badRequest("read, write and owner need a bucket");
        }
        String badBucket = bucket == null ? null : bucketProblem(bucket);
        if (badBucket != null) {
            return badRequest(badBucket);
        }
        Map<String, BucketPermission> buckets = new TreeMap<>();
        BucketPermission permission = permission(read, write, owner);
        if (bucket != null && permission != null) {
            buckets.put(bucket, permission);
        }
        String id;
        do {
            id = KEY_PREFIX + random(KEY_ALPHABET, KEY_RANDOM_LENGTH);
        } while (id.equals(root.accessKeyId()) || metadata.getAccessKey(id).isPresent());
        AccessKey key = new AccessKey(id, random(SECRET_ALPHABET, SECRET_LENGTH),
                clock.instant().truncatedTo(ChronoUnit.MILLIS), false, buckets, Boolean.TRUE.equals(createBuckets));
        // Stored sealed; the answer is the one place the secret is shown.
        metadata.putAccessKey(seal.sealed(key));
        return new WebEndpointResponse<>(new CreatedKey(key.accessKeyId(), key.secretKey(), key.created().toString(),
                false, new TreeMap<>(key.buckets()), key.createBuckets()));
    }

    /**
     * Sets what a key may do in a bucket, replacing what it had there; with every flag false or absent, the key
     * loses the bucket. With {@code createBuckets}, sets whether it may create buckets (alone, or with a bucket's
     * permission). 404 for an unknown key; 400 for the root key, which may do everything anyway.
     */
    @WriteOperation
    public WebEndpointResponse<Object> permit(@Selector String id, @Nullable String bucket, @Nullable Boolean read,
            @Nullable Boolean write, @Nullable Boolean owner, @Nullable Boolean createBuckets) {
        if (bucket == null && createBuckets == null) {
            return badRequest("a bucket, or createBuckets, is required");
        }
        if (bucket == null && (read != null || write != null || owner != null)) {
            return badRequest("read, write and owner need a bucket");
        }
        String badBucket = bucket == null ? null : bucketProblem(bucket);
        if (badBucket != null) {
            return badRequest(badBucket);
        }
        Optional<AccessKey> existing = find(id);
        if (existing.isEmpty()) {
            return notFound(id);
        }
        if (existing.get().root()) {
            return badRequest("the root key may do everything in every bucket; it has no bucket permissions");
        }
        BucketPermission permission = permission(read, write, owner);
        List<AccessKeyChange> changes = new java.util.ArrayList<>();
        if (bucket != null) {
            changes.add(new AccessKeyChange.SetBucketPermission(bucket, permission));
        }
        if (createBuckets != null) {
            changes.add(new AccessKeyChange.SetCreateBuckets(createBuckets));
        }
        return metadata.changeAccessKey(id, new AccessKeyChange.All(changes))
                .<WebEndpointResponse<Object>>map(key -> new WebEndpointResponse<>(describe(key)))
                .orElseGet(() -> notFound(id));
    }

    /** Deletes a key: its next request fails with InvalidAccessKeyId. The root key cannot be revoked. */
    @DeleteOperation
    public WebEndpointResponse<Object> revoke(@Selector String id) {
        Optional<AccessKey> existing = find(id);
        if (existing.isEmpty()) {
            return notFound(id);
        }
        if (existing.get().root()) {
            return badRequest("the root key cannot be revoked");
        }
        if (!metadata.deleteAccessKey(id)) {
            return notFound(id);
        }
        return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NO_CONTENT);
    }

    private Optional<AccessKey> find(String id) {
        if (id.equals(root.accessKeyId())) {
            return Optional.of(root);
        }
        return metadata.getAccessKey(id);
    }

    /** Why {@code bucket} cannot name a bucket (S3's naming rules), or null: a typo must not grant a name nobody uses. */
    static @Nullable String bucketProblem(String bucket) {
        String problem = BucketNames.problem(bucket);
        return problem == null ? null : "bucket " + bucket + " is not a valid bucket name: " + problem;
    }

    private static @Nullable BucketPermission permission(@Nullable Boolean read, @Nullable Boolean write,
            @Nullable Boolean owner) {
        BucketPermission permission = new BucketPermission(Boolean.TRUE.equals(read), Boolean.TRUE.equals(write),
                Boolean.TRUE.equals(owner));
        return permission.read() || permission.write() || permission.owner() ? permission : null;
    }

    private static KeyDescription describe(AccessKey key) {
        return new KeyDescription(key.accessKeyId(), key.created().toString(), key.root(),
                key.root() ? Map.of() : new TreeMap<>(key.buckets()), key.mayCreateBuckets());
    }

    private static WebEndpointResponse<Object> notFound(String id) {
        return new WebEndpointResponse<>(new Failure("no access key " + id), WebEndpointResponse.STATUS_NOT_FOUND);
    }

    private static WebEndpointResponse<Object> badRequest(String message) {
        return new WebEndpointResponse<>(new Failure(message), WebEndpointResponse.STATUS_BAD_REQUEST);
    }

    private static String random(String alphabet, int length) {
        StringBuilder builder = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            builder.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        }
        return builder.toString();
    }
}
