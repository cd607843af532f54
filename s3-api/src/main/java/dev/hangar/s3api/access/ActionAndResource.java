package dev.hangar.s3api.access;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The IAM action an S3 operation needs and the resource it acts on, as bucket policies name them:
 * e.g. GetObject on {@code photos/cat.jpg} is {@code s3:GetObject} on
 * {@code arn:aws:s3:::photos/cat.jpg}.
 *
 * @param action the IAM action, e.g. {@code s3:GetObject}
 * @param resource the ARN: {@code arn:aws:s3:::bucket}, {@code arn:aws:s3:::bucket/key}, or
 *     {@link #ALL_BUCKETS} for ListBuckets
 */
public record ActionAndResource(String action, String resource) {
    /** The resource of ListBuckets, which is not about one bucket. */
    public static final String ALL_BUCKETS = "arn:aws:s3:::*";

    private static final String ARN_PREFIX = "arn:aws:s3:::";

    /** The action of an operation, and the other action it needs when it names an object version. */
    private record Mapping(S3Action action, @Nullable S3Action versioned) {}

    private static final Map<String, Mapping> OPERATIONS = operations();

    public ActionAndResource {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(resource, "resource");
    }

    /**
     * The action and resource of an operation, for the current version of an object.
     *
     * @see #of(String, String, String, String)
     */
    public static ActionAndResource of(String operation, @Nullable String bucket, @Nullable String key) {
        return of(operation, bucket, key, null);
    }

    /**
     * The action and resource of an operation, by its S3 API name ({@code S3Operation.name()}).
     *
     * <p>Some operations need more than one check, which the caller makes by asking for each:
     * <ul>
     *   <li>CopyObject and UploadPartCopy are {@code s3:PutObject} on the target; the caller also checks
     *       GetObject (with the source's {@code versionId}, if any) on the source object, against the
     *       source bucket's policy and ACLs;</li>
     *   <li>DeleteObjects is {@code s3:DeleteObject} (or {@code s3:DeleteObjectVersion}) on each key it
     *       lists: ask once per key.</li>
     * </ul>
     *
     * @param operation e.g. {@code GetObject}, {@code ListObjectsV2}, {@code PutBucketPolicy}
     * @param bucket the bucket; may be null only for ListBuckets
     * @param key the object key for object operations, ignored for bucket operations
     * @param versionId the {@code versionId} the request names, if any: GetObject of a version is
     *     {@code s3:GetObjectVersion}, DeleteObject of one {@code s3:DeleteObjectVersion}, and so on
     * @throws IllegalArgumentException for an operation Hangar knows no IAM action of, or a missing
     *     bucket or key
     */
    public static ActionAndResource of(
            String operation, @Nullable String bucket, @Nullable String key, @Nullable String versionId) {
        Mapping mapping = OPERATIONS.get(operation);
        if (mapping == null) {
            throw new IllegalArgumentException("No IAM action is known for the S3 operation " + operation);
        }
        S3Action action = versionId != null && mapping.versioned() != null ? mapping.versioned() : mapping.action();
        if (action == S3Action.LIST_ALL_MY_BUCKETS) {
            return new ActionAndResource(action.iamName(), ALL_BUCKETS);
        }
        if (bucket == null || bucket.isEmpty()) {
            throw new IllegalArgumentException(operation + " needs a bucket");
        }
        if (action.scope() == S3Action.Scope.OBJECT) {
            if (key == null) {
                throw new IllegalArgumentException(operation + " needs an object key"
                        + (operation.equals("DeleteObjects") ? ": it is authorized once per key" : ""));
            }
            return new ActionAndResource(action.iamName(), objectArn(bucket, key));
        }
        return new ActionAndResource(action.iamName(), bucketArn(bucket));
    }

    /** Whether {@link #of} knows this operation. */
    public static boolean knows(String operation) {
        return OPERATIONS.containsKey(operation);
    }

    /** {@code arn:aws:s3:::bucket}. */
    public static String bucketArn(String bucket) {
        return ARN_PREFIX + bucket;
    }

    /** {@code arn:aws:s3:::bucket/key}, the key as it is (S3 ARNs do not encode it). */
    public static String objectArn(String bucket, String key) {
        return ARN_PREFIX + bucket + "/" + key;
    }

    private static Map<String, Mapping> operations() {
        Map<String, Mapping> map = new HashMap<>();
        // Service
        put(map, S3Action.LIST_ALL_MY_BUCKETS, "ListBuckets");
        put(map, S3Action.CREATE_BUCKET, "CreateBucket");
        // Bucket contents
        put(map, S3Action.DELETE_BUCKET, "DeleteBucket");
        put(map, S3Action.LIST_BUCKET, "HeadBucket", "ListObjects", "ListObjectsV2");
        put(map, S3Action.LIST_BUCKET_VERSIONS, "ListObjectVersions");
        put(map, S3Action.LIST_BUCKET_MULTIPART_UPLOADS, "ListMultipartUploads");
        put(map, S3Action.GET_BUCKET_LOCATION, "GetBucketLocation");
        // Bucket configuration
        put(map, S3Action.GET_BUCKET_VERSIONING, "GetBucketVersioning");
        put(map, S3Action.PUT_BUCKET_VERSIONING, "PutBucketVersioning");
        put(map, S3Action.GET_BUCKET_POLICY, "GetBucketPolicy");
        put(map, S3Action.PUT_BUCKET_POLICY, "PutBucketPolicy");
        put(map, S3Action.DELETE_BUCKET_POLICY, "DeleteBucketPolicy");
        put(map, S3Action.GET_BUCKET_POLICY_STATUS, "GetBucketPolicyStatus");
        put(map, S3Action.GET_BUCKET_ACL, "GetBucketAcl");
        put(map, S3Action.PUT_BUCKET_ACL, "PutBucketAcl");
        put(map, S3Action.GET_BUCKET_TAGGING, "GetBucketTagging");
        put(map, S3Action.PUT_BUCKET_TAGGING, "PutBucketTagging", "DeleteBucketTagging");
        put(map, S3Action.GET_BUCKET_CORS, "GetBucketCors");
        put(map, S3Action.PUT_BUCKET_CORS, "PutBucketCors", "DeleteBucketCors");
        put(map, S3Action.GET_BUCKET_WEBSITE, "GetBucketWebsite");
        put(map, S3Action.PUT_BUCKET_WEBSITE, "PutBucketWebsite");
        put(map, S3Action.DELETE_BUCKET_WEBSITE, "DeleteBucketWebsite");
        put(map, S3Action.GET_LIFECYCLE_CONFIGURATION, "GetBucketLifecycleConfiguration", "GetBucketLifecycle");
        put(map, S3Action.PUT_LIFECYCLE_CONFIGURATION,
                "PutBucketLifecycleConfiguration", "PutBucketLifecycle", "DeleteBucketLifecycle");
        put(map, S3Action.GET_BUCKET_OBJECT_LOCK_CONFIGURATION, "GetObjectLockConfiguration");
        put(map, S3Action.PUT_BUCKET_OBJECT_LOCK_CONFIGURATION, "PutObjectLockConfiguration");
        put(map, S3Action.GET_ENCRYPTION_CONFIGURATION, "GetBucketEncryption");
        put(map, S3Action.PUT_ENCRYPTION_CONFIGURATION, "PutBucketEncryption", "DeleteBucketEncryption");
        put(map, S3Action.GET_BUCKET_LOGGING, "GetBucketLogging");
        put(map, S3Action.PUT_BUCKET_LOGGING, "PutBucketLogging");
        put(map, S3Action.GET_BUCKET_NOTIFICATION, "GetBucketNotificationConfiguration", "GetBucketNotification");
        put(map, S3Action.PUT_BUCKET_NOTIFICATION, "PutBucketNotificationConfiguration", "PutBucketNotification");
        put(map, S3Action.GET_REPLICATION_CONFIGURATION, "GetBucketReplication");
        put(map, S3Action.PUT_REPLICATION_CONFIGURATION, "PutBucketReplication", "DeleteBucketReplication");
        put(map, S3Action.GET_BUCKET_REQUEST_PAYMENT, "GetBucketRequestPayment");
        put(map, S3Action.PUT_BUCKET_REQUEST_PAYMENT, "PutBucketRequestPayment");
        put(map, S3Action.GET_ACCELERATE_CONFIGURATION, "GetBucketAccelerateConfiguration");
        put(map, S3Action.PUT_ACCELERATE_CONFIGURATION, "PutBucketAccelerateConfiguration");
        put(map, S3Action.GET_BUCKET_OWNERSHIP_CONTROLS, "GetBucketOwnershipControls");
        put(map, S3Action.PUT_BUCKET_OWNERSHIP_CONTROLS, "PutBucketOwnershipControls", "DeleteBucketOwnershipControls");
        put(map, S3Action.GET_BUCKET_PUBLIC_ACCESS_BLOCK, "GetPublicAccessBlock");
        put(map, S3Action.PUT_BUCKET_PUBLIC_ACCESS_BLOCK, "PutPublicAccessBlock", "DeletePublicAccessBlock");
        configurations(map, "Analytics", S3Action.GET_ANALYTICS_CONFIGURATION, S3Action.PUT_ANALYTICS_CONFIGURATION);
        configurations(map, "Inventory", S3Action.GET_INVENTORY_CONFIGURATION, S3Action.PUT_INVENTORY_CONFIGURATION);
        configurations(map, "Metrics", S3Action.GET_METRICS_CONFIGURATION, S3Action.PUT_METRICS_CONFIGURATION);
        configurations(map, "IntelligentTiering",
                S3Action.GET_INTELLIGENT_TIERING_CONFIGURATION, S3Action.PUT_INTELLIGENT_TIERING_CONFIGURATION);
        // Objects
        putVersioned(map, S3Action.GET_OBJECT, S3Action.GET_OBJECT_VERSION, "GetObject", "HeadObject");
        put(map, S3Action.GET_OBJECT, "SelectObjectContent");
        put(map, S3Action.PUT_OBJECT, "PutObject", "CopyObject", "PostObject",
                "CreateMultipartUpload", "UploadPart", "UploadPartCopy", "CompleteMultipartUpload");
        putVersioned(map, S3Action.DELETE_OBJECT, S3Action.DELETE_OBJECT_VERSION, "DeleteObject", "DeleteObjects");
        put(map, S3Action.ABORT_MULTIPART_UPLOAD, "AbortMultipartUpload");
        put(map, S3Action.LIST_MULTIPART_UPLOAD_PARTS, "ListParts");
        putVersioned(map, S3Action.GET_OBJECT_ACL, S3Action.GET_OBJECT_VERSION_ACL, "GetObjectAcl");
        putVersioned(map, S3Action.PUT_OBJECT_ACL, S3Action.PUT_OBJECT_VERSION_ACL, "PutObjectAcl");
        putVersioned(map, S3Action.GET_OBJECT_TAGGING, S3Action.GET_OBJECT_VERSION_TAGGING, "GetObjectTagging");
        putVersioned(map, S3Action.PUT_OBJECT_TAGGING, S3Action.PUT_OBJECT_VERSION_TAGGING, "PutObjectTagging");
        putVersioned(map, S3Action.DELETE_OBJECT_TAGGING, S3Action.DELETE_OBJECT_VERSION_TAGGING,
                "DeleteObjectTagging");
        putVersioned(map, S3Action.GET_OBJECT_ATTRIBUTES, S3Action.GET_OBJECT_VERSION_ATTRIBUTES,
                "GetObjectAttributes");
        putVersioned(map, S3Action.GET_OBJECT_TORRENT, S3Action.GET_OBJECT_VERSION_TORRENT, "GetObjectTorrent");
        put(map, S3Action.GET_OBJECT_RETENTION, "GetObjectRetention");
        put(map, S3Action.PUT_OBJECT_RETENTION, "PutObjectRetention");
        put(map, S3Action.GET_OBJECT_LEGAL_HOLD, "GetObjectLegalHold");
        put(map, S3Action.PUT_OBJECT_LEGAL_HOLD, "PutObjectLegalHold");
        put(map, S3Action.BYPASS_GOVERNANCE_RETENTION, "BypassGovernanceRetention");
        put(map, S3Action.RESTORE_OBJECT, "RestoreObject");
        return Map.copyOf(map);
    }

    /** Get/List read a bucket's configurations of a kind, Put/Delete change them. */
    private static void configurations(Map<String, Mapping> map, String kind, S3Action read, S3Action change) {
        String name = "Bucket" + kind + "Configuration";
        put(map, read, "Get" + name, "List" + name + "s");
        put(map, change, "Put" + name, "Delete" + name);
    }

    private static void put(Map<String, Mapping> map, S3Action action, String... operations) {
        for (String operation : operations) {
            map.put(operation, new Mapping(action, null));
        }
    }

    private static void putVersioned(Map<String, Mapping> map, S3Action action, S3Action versioned, String... operations) {
        for (String operation : operations) {
            map.put(operation, new Mapping(action, versioned));
        }
    }
}
