package dev.hangar.s3api.access;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The IAM actions of S3 that a bucket policy may name, each with what it applies to (a policy's
 * {@code Resource} must cover that) and which per-bucket key permission grants it.
 *
 * <p>The catalogue is what policy validation checks action names against: an action pattern that
 * matches none of these is {@code Policy has invalid action}, as on AWS.
 */
enum S3Action {
    // Not scoped to one bucket: never granted by a bucket policy.
    LIST_ALL_MY_BUCKETS("ListAllMyBuckets", Scope.SERVICE, Kind.READ),
    CREATE_BUCKET("CreateBucket", Scope.SERVICE, Kind.OWNER),

    // The bucket's contents, read.
    LIST_BUCKET("ListBucket", Scope.BUCKET, Kind.READ),
    LIST_BUCKET_VERSIONS("ListBucketVersions", Scope.BUCKET, Kind.READ),
    LIST_BUCKET_MULTIPART_UPLOADS("ListBucketMultipartUploads", Scope.BUCKET, Kind.READ),
    GET_BUCKET_LOCATION("GetBucketLocation", Scope.BUCKET, Kind.READ),

    // The bucket's configuration, read: harmless to show to readers.
    GET_BUCKET_VERSIONING("GetBucketVersioning", Scope.BUCKET, Kind.READ),
    GET_BUCKET_ACL("GetBucketAcl", Scope.BUCKET, Kind.READ),
    GET_BUCKET_CORS("GetBucketCORS", Scope.BUCKET, Kind.READ),
    GET_BUCKET_WEBSITE("GetBucketWebsite", Scope.BUCKET, Kind.READ),
    GET_LIFECYCLE_CONFIGURATION("GetLifecycleConfiguration", Scope.BUCKET, Kind.READ),
    GET_BUCKET_TAGGING("GetBucketTagging", Scope.BUCKET, Kind.READ),
    GET_BUCKET_OBJECT_LOCK_CONFIGURATION("GetBucketObjectLockConfiguration", Scope.BUCKET, Kind.READ),
    GET_ENCRYPTION_CONFIGURATION("GetEncryptionConfiguration", Scope.BUCKET, Kind.READ),
    GET_BUCKET_LOGGING("GetBucketLogging", Scope.BUCKET, Kind.READ),
    GET_BUCKET_NOTIFICATION("GetBucketNotification", Scope.BUCKET, Kind.READ),
    GET_REPLICATION_CONFIGURATION("GetReplicationConfiguration", Scope.BUCKET, Kind.READ),
    GET_BUCKET_REQUEST_PAYMENT("GetBucketRequestPayment", Scope.BUCKET, Kind.READ),
    GET_ACCELERATE_CONFIGURATION("GetAccelerateConfiguration", Scope.BUCKET, Kind.READ),
    GET_BUCKET_OWNERSHIP_CONTROLS("GetBucketOwnershipControls", Scope.BUCKET, Kind.READ),
    GET_BUCKET_PUBLIC_ACCESS_BLOCK("GetBucketPublicAccessBlock", Scope.BUCKET, Kind.READ),
    GET_ANALYTICS_CONFIGURATION("GetAnalyticsConfiguration", Scope.BUCKET, Kind.READ),
    GET_INVENTORY_CONFIGURATION("GetInventoryConfiguration", Scope.BUCKET, Kind.READ),
    GET_METRICS_CONFIGURATION("GetMetricsConfiguration", Scope.BUCKET, Kind.READ),
    GET_INTELLIGENT_TIERING_CONFIGURATION("GetIntelligentTieringConfiguration", Scope.BUCKET, Kind.READ),

    // The bucket's policy, read: AWS shows it to the owning account only.
    GET_BUCKET_POLICY("GetBucketPolicy", Scope.BUCKET, Kind.OWNER),
    GET_BUCKET_POLICY_STATUS("GetBucketPolicyStatus", Scope.BUCKET, Kind.OWNER),

    // The bucket's configuration, changed, and the bucket itself deleted.
    DELETE_BUCKET("DeleteBucket", Scope.BUCKET, Kind.OWNER),
    PUT_BUCKET_POLICY("PutBucketPolicy", Scope.BUCKET, Kind.OWNER),
    DELETE_BUCKET_POLICY("DeleteBucketPolicy", Scope.BUCKET, Kind.OWNER),
    PUT_BUCKET_VERSIONING("PutBucketVersioning", Scope.BUCKET, Kind.OWNER),
    PUT_BUCKET_ACL("PutBucketAcl", Scope.BUCKET, Kind.OWNER),
    PUT_BUCKET_CORS("PutBucketCORS", Scope.BUCKET, Kind.OWNER),
    PUT_BUCKET_WEBSITE("PutBucketWebsite", Scope.BUCKET, Kind.OWNER),
    DELETE_BUCKET_WEBSITE("DeleteBucketWebsite", Scope.BUCKET, Kind.OWNER),
    PUT_LIFECYCLE_CONFIGURATION("PutLifecycleConfiguration", Scope.BUCKET, Kind.OWNER),
    PUT_BUCKET_TAGGING("PutBucketTagging", Scope.BUCKET, Kind.OWNER),
    PUT_BUCKET_OBJECT_LOCK_CONFIGURATION("PutBucketObjectLockConfiguration", Scope.BUCKET, Kind.OWNER),
    PUT_ENCRYPTION_CONFIGURATION("PutEncryptionConfiguration", Scope.BUCKET, Kind.OWNER),
    PUT_BUCKET_LOGGING("PutBucketLogging", Scope.BUCKET, Kind.OWNER),
    PUT_BUCKET_NOTIFICATION("PutBucketNotification", Scope.BUCKET, Kind.OWNER),
    PUT_REPLICATION_CONFIGURATION("PutReplicationConfiguration", Scope.BUCKET, Kind.OWNER),
    PUT_BUCKET_REQUEST_PAYMENT("PutBucketRequestPayment", Scope.BUCKET, Kind.OWNER),
    PUT_ACCELERATE_CONFIGURATION("PutAccelerateConfiguration", Scope.BUCKET, Kind.OWNER),
    PUT_BUCKET_OWNERSHIP_CONTROLS("PutBucketOwnershipControls", Scope.BUCKET, Kind.OWNER),
    PUT_BUCKET_PUBLIC_ACCESS_BLOCK("PutBucketPublicAccessBlock", Scope.BUCKET, Kind.OWNER),
    PUT_ANALYTICS_CONFIGURATION("PutAnalyticsConfiguration", Scope.BUCKET, Kind.OWNER),
    PUT_INVENTORY_CONFIGURATION("PutInventoryConfiguration", Scope.BUCKET, Kind.OWNER),
    PUT_METRICS_CONFIGURATION("PutMetricsConfiguration", Scope.BUCKET, Kind.OWNER),
    PUT_INTELLIGENT_TIERING_CONFIGURATION("PutIntelligentTieringConfiguration", Scope.BUCKET, Kind.OWNER),

    // Objects, read.
    GET_OBJECT("GetObject", Scope.OBJECT, Kind.READ),
    GET_OBJECT_VERSION("GetObjectVersion", Scope.OBJECT, Kind.READ),
    GET_OBJECT_ACL("GetObjectAcl", Scope.OBJECT, Kind.READ),
    GET_OBJECT_VERSION_ACL("GetObjectVersionAcl", Scope.OBJECT, Kind.READ),
    GET_OBJECT_TAGGING("GetObjectTagging", Scope.OBJECT, Kind.READ),
    GET_OBJECT_VERSION_TAGGING("GetObjectVersionTagging", Scope.OBJECT, Kind.READ),
    GET_OBJECT_ATTRIBUTES("GetObjectAttributes", Scope.OBJECT, Kind.READ),
    GET_OBJECT_VERSION_ATTRIBUTES("GetObjectVersionAttributes", Scope.OBJECT, Kind.READ),
    GET_OBJECT_RETENTION("GetObjectRetention", Scope.OBJECT, Kind.READ),
    GET_OBJECT_LEGAL_HOLD("GetObjectLegalHold", Scope.OBJECT, Kind.READ),
    GET_OBJECT_TORRENT("GetObjectTorrent", Scope.OBJECT, Kind.READ),
    GET_OBJECT_VERSION_TORRENT("GetObjectVersionTorrent", Scope.OBJECT, Kind.READ),
    GET_OBJECT_VERSION_FOR_REPLICATION("GetObjectVersionForReplication", Scope.OBJECT, Kind.READ),
    LIST_MULTIPART_UPLOAD_PARTS("ListMultipartUploadParts", Scope.OBJECT, Kind.READ),

    // Objects, written.
    PUT_OBJECT("PutObject", Scope.OBJECT, Kind.WRITE),
    DELETE_OBJECT("DeleteObject", Scope.OBJECT, Kind.WRITE),
    DELETE_OBJECT_VERSION("DeleteObjectVersion", Scope.OBJECT, Kind.WRITE),
    ABORT_MULTIPART_UPLOAD("AbortMultipartUpload", Scope.OBJECT, Kind.WRITE),
    PUT_OBJECT_TAGGING("PutObjectTagging", Scope.OBJECT, Kind.WRITE),
    PUT_OBJECT_VERSION_TAGGING("PutObjectVersionTagging", Scope.OBJECT, Kind.WRITE),
    DELETE_OBJECT_TAGGING("DeleteObjectTagging", Scope.OBJECT, Kind.WRITE),
    DELETE_OBJECT_VERSION_TAGGING("DeleteObjectVersionTagging", Scope.OBJECT, Kind.WRITE),
    PUT_OBJECT_RETENTION("PutObjectRetention", Scope.OBJECT, Kind.WRITE),
    PUT_OBJECT_LEGAL_HOLD("PutObjectLegalHold", Scope.OBJECT, Kind.WRITE),
    RESTORE_OBJECT("RestoreObject", Scope.OBJECT, Kind.WRITE),
    REPLICATE_OBJECT("ReplicateObject", Scope.OBJECT, Kind.WRITE),
    REPLICATE_DELETE("ReplicateDelete", Scope.OBJECT, Kind.WRITE),
    REPLICATE_TAGS("ReplicateTags", Scope.OBJECT, Kind.WRITE),

    // Objects: who may access them, and lifting a governance-mode lock.
    PUT_OBJECT_ACL("PutObjectAcl", Scope.OBJECT, Kind.OWNER),
    PUT_OBJECT_VERSION_ACL("PutObjectVersionAcl", Scope.OBJECT, Kind.OWNER),
    BYPASS_GOVERNANCE_RETENTION("BypassGovernanceRetention", Scope.OBJECT, Kind.OWNER),
    OBJECT_OWNER_OVERRIDE_TO_BUCKET_OWNER("ObjectOwnerOverrideToBucketOwner", Scope.OBJECT, Kind.OWNER);

    /** What an action applies to: a bucket ARN, an object ARN, or nothing a bucket policy covers. */
    enum Scope {
        SERVICE,
        BUCKET,
        OBJECT
    }

    /** Which per-bucket permission of a key grants an action (see {@link KeyPermission}). */
    enum Kind {
        READ,
        WRITE,
        OWNER
    }

    private static final String PREFIX = "s3:";
    private static final Map<String, S3Action> BY_LOWER_CASE_NAME = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(
                    action -> action.iamName.toLowerCase(Locale.ROOT), Function.identity()));

    private final String iamName;
    private final Scope scope;
    private final Kind kind;

    S3Action(String name, Scope scope, Kind kind) {
        this.iamName = PREFIX + name;
        this.scope = scope;
        this.kind = kind;
    }

    /** The IAM name, e.g. {@code s3:GetObject}. */
    String iamName() {
        return iamName;
    }

    Scope scope() {
        return scope;
    }

    Kind kind() {
        return kind;
    }

    /** The action of this IAM name, compared without regard to case as IAM does; null if S3 has none. */
    static @Nullable S3Action fromIamName(String name) {
        return BY_LOWER_CASE_NAME.get(name.toLowerCase(Locale.ROOT));
    }
}
