package dev.hangar.s3api.access;

import org.jspecify.annotations.Nullable;

/**
 * A bucket's PublicAccessBlock settings, which override what its ACLs and policy would otherwise
 * open to the public. What counts as public is {@link BucketAcl#isPublic()},
 * {@link ObjectAcl#isPublic()} and {@link BucketPolicy#isPublic()}.
 *
 * @param blockPublicAcls PutBucketAcl, PutObjectAcl and writes of objects (PutObject, CopyObject,
 *     CreateMultipartUpload) with a public ACL are refused with AccessDenied; ACLs already set stay
 * @param ignorePublicAcls public ACLs of the bucket and its objects grant nothing; they stay stored
 * @param blockPublicPolicy PutBucketPolicy with a public policy is refused with AccessDenied; a policy
 *     already set stays
 * @param restrictPublicBuckets while the bucket's policy is public, its Allow statements give nothing
 *     to anonymous requests (see {@link BucketPolicy#restrictedToSignedRequests()})
 */
public record PublicAccessBlock(
        boolean blockPublicAcls, boolean ignorePublicAcls, boolean blockPublicPolicy, boolean restrictPublicBuckets) {

    /** What a bucket without a PublicAccessBlock configuration has: nothing blocked. */
    public static final PublicAccessBlock NONE = new PublicAccessBlock(false, false, false, false);

    /** The object ACL as access decisions weigh it: without its public grants when public ACLs are ignored. */
    public ObjectAcl effective(ObjectAcl acl) {
        return ignorePublicAcls && acl.isPublic() ? acl.withoutPublicGrants() : acl;
    }

    /** The policy as access decisions weigh it: restricted when it is public and public buckets are restricted. */
    public @Nullable BucketPolicy effective(@Nullable BucketPolicy policy) {
        if (policy == null || !restrictPublicBuckets || !policy.isPublic()) {
            return policy;
        }
        return policy.restrictedToSignedRequests();
    }

    /** The bucket ACL as access decisions weigh it: without its public grants when public ACLs are ignored. */
    public BucketAcl effective(BucketAcl acl) {
        return ignorePublicAcls && acl.isPublic() ? acl.withoutPublicGrants() : acl;
    }

    /** Whether PutBucketAcl or CreateBucket with this ACL is refused. */
    public boolean refuses(BucketAcl acl) {
        return blockPublicAcls && acl.isPublic();
    }

    /** Whether a write that sets this object ACL is refused. */
    public boolean refuses(ObjectAcl acl) {
        return blockPublicAcls && acl.isPublic();
    }

    /** Whether PutBucketPolicy with this policy is refused. */
    public boolean refuses(BucketPolicy policy) {
        return blockPublicPolicy && policy.isPublic();
    }
}
