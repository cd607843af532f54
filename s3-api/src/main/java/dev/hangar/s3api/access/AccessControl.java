package dev.hangar.s3api.access;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Hangar's access decision for one request, combining everything that can grant or refuse it.
 *
 * <p>In this order, the first rule that applies decides:
 * <ol>
 *   <li>a Deny statement of the bucket policy that matches denies, for every key except the root key;</li>
 *   <li>the root key is allowed everything. Unlike AWS, where a bucket policy can lock out even the
 *       owning account's users, a Hangar bucket policy never denies the root key, so that a wrong policy
 *       can always be repaired;</li>
 *   <li>an Allow statement of the bucket policy that matches allows;</li>
 *   <li>the signing key's permission on the bucket allows what it covers (see {@link KeyPermission});</li>
 *   <li>the bucket's ACL allows what it grants to everyone, to every signed request, or to the signing
 *       key by its canonical id (see {@link BucketAcl#allows}), and the object's ACL likewise on the
 *       object (see {@link ObjectAcl#allows});</li>
 *   <li>anything else is denied.</li>
 * </ol>
 * ListBuckets and CreateBucket concern no existing bucket, so neither a policy nor an ACL applies:
 * anonymous requests are denied, any signed key may list (the caller shows it only the buckets it has a
 * permission on), and creating a bucket takes the root key or a key granted bucket creation (the caller
 * passes that as the {@code owner} flag of its permission).
 */
public final class AccessControl {

    private AccessControl() {}

    /**
     * Decides an operation by its S3 API name; see {@link ActionAndResource#of(String, String, String)}
     * for how operations map to actions, and which need a second check (the source of a copy, each key
     * of DeleteObjects).
     *
     * @param principal the access key id that signed the request, or null for an anonymous request
     * @param root whether that key is the root key
     * @param permission the key's permission on the bucket ({@link KeyPermission#NONE} for anonymous
     *     requests, for which it is ignored)
     * @param policy the bucket's policy, or null if it has none
     * @param bucketAcl the bucket's canned ACL
     * @param objectAcl the object's canned ACL, for an operation on an existing object; null otherwise
     * @param operation the S3 operation, e.g. {@code GetObject}
     * @param bucket the bucket, null only for ListBuckets
     * @param key the object key of an object operation
     * @param context the policy condition keys of the request (see {@link AccessRequest})
     */
    public static Decision decide(
            @Nullable String principal,
            boolean root,
            KeyPermission permission,
            @Nullable BucketPolicy policy,
            CannedAcl bucketAcl,
            @Nullable CannedAcl objectAcl,
            String operation,
            @Nullable String bucket,
            @Nullable String key,
            Map<String, List<String>> context) {
        return decide(principal, root, permission, policy, bucketAcl, objectAcl,
                ActionAndResource.of(operation, bucket, key), context);
    }

    /**
     * Decides an action on a resource, for the cases {@link ActionAndResource#of} needs more than the
     * operation's name for (a {@code versionId}).
     *
     * @throws IllegalArgumentException if an anonymous request is said to be the root key, or the policy
     *     is another bucket's than the resource's
     */
    public static Decision decide(
            @Nullable String principal,
            boolean root,
            KeyPermission permission,
            @Nullable BucketPolicy policy,
            CannedAcl bucketAcl,
            @Nullable CannedAcl objectAcl,
            ActionAndResource target,
            Map<String, List<String>> context) {
        return decide(principal, root, permission, policy, new BucketAcl(List.of(), bucketAcl),
                objectAcl == null ? null : new ObjectAcl(List.of(), objectAcl), target, context);
    }

    /**
     * As {@link #decide(String, boolean, KeyPermission, BucketPolicy, CannedAcl, CannedAcl, ActionAndResource, Map)},
     * with the bucket's and the object's ACLs each a grant list or a canned ACL ({@link BucketAcl},
     * {@link ObjectAcl}).
     */
    public static Decision decide(
            @Nullable String principal,
            boolean root,
            KeyPermission permission,
            @Nullable BucketPolicy policy,
            BucketAcl bucketAcl,
            @Nullable ObjectAcl objectAcl,
            ActionAndResource target,
            Map<String, List<String>> context) {
        if (root && principal == null) {
            throw new IllegalArgumentException("An anonymous request cannot be the root key");
        }
        String action = target.action();
        S3Action known = S3Action.fromIamName(action);
        if (known != null && known.scope() == S3Action.Scope.SERVICE) {
            return decideForService(principal, root, permission, known);
        }
        if (policy != null && !isInBucket(target.resource(), policy.bucket())) {
            throw new IllegalArgumentException(
                    "The policy of bucket " + policy.bucket() + " does not apply to " + target.resource());
        }
        PolicyDecision policyDecision = policy == null
                ? PolicyDecision.NO_MATCH
                : policy.evaluate(new AccessRequest(principal, target, context));
        if (policyDecision == PolicyDecision.EXPLICIT_DENY) {
            return root
                    ? Decision.allow("the root key: the bucket policy denies " + action + ", but never denies the root key")
                    : Decision.deny("the bucket policy explicitly denies " + action);
        }
        if (root) {
            return Decision.allow("the root key");
        }
        if (policyDecision == PolicyDecision.ALLOW) {
            return Decision.allow("the bucket policy allows " + action);
        }
        if (principal != null && known != null && permission.allows(action)) {
            return Decision.allow("the key's " + known.kind().name().toLowerCase(Locale.ROOT)
                    + " permission on the bucket gives " + action);
        }
        AclDecision acl = acl(bucketAcl, objectAcl, action, principal);
        if (acl.granted()) {
            return Decision.allow(acl.reason());
        }
        return Decision.deny("neither the bucket policy, "
                + (principal == null ? "" : "the key's permission on the bucket, ") + "nor an ACL allows " + action
                + (principal == null ? " to anonymous requests" : ""));
    }

    /** The bucket's ACL, then the object's: grants are only ever added, so either may give the action. */
    private static AclDecision acl(BucketAcl bucketAcl, @Nullable ObjectAcl objectAcl, String action,
            @Nullable String principal) {
        AclDecision bucketDecision = bucketAcl.allows(action, principal);
        if (bucketDecision.granted() || objectAcl == null) {
            return bucketDecision;
        }
        return objectAcl.allows(action, principal);
    }

    private static Decision decideForService(
            @Nullable String principal, boolean root, KeyPermission permission, S3Action action) {
        if (principal == null) {
            return Decision.deny("anonymous requests cannot call " + action.iamName());
        }
        if (root) {
            return Decision.allow("the root key");
        }
        if (action == S3Action.CREATE_BUCKET) {
            return permission.owner()
                    ? Decision.allow("the key may create buckets")
                    : Decision.deny("the key may not create buckets (the administrator grants that with createBuckets)");
        }
        return Decision.allow("every signed key may list the buckets it has a permission on");
    }

    /** Whether an ARN is the bucket's or one of its objects'. */
    private static boolean isInBucket(String resource, String bucket) {
        String bucketArn = ActionAndResource.bucketArn(bucket);
        return resource.equals(bucketArn) || resource.startsWith(bucketArn + "/");
    }
}
