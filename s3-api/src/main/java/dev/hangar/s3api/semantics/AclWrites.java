package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.access.BucketAcl;
import dev.hangar.s3api.access.CannedAcl;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * What a bucket's Object Ownership and PublicAccessBlock say about a request that sets an ACL: PutBucketAcl, PutObjectAcl, and the
 * {@code x-amz-acl} of PutObject, CopyObject, CreateMultipartUpload and a browser upload. Checked
 * before anything is stored.
 */
final class AclWrites {
    private AclWrites() {}

    /**
     * Refuses an ACL the bucket does not take. A bucket whose Object Ownership is BucketOwnerEnforced
     * has ACLs disabled and takes only {@code bucket-owner-full-control}, or a grant list equivalent to
     * it (full control for the owner alone: Hangar has one owner of buckets and objects). A bucket
     * whose PublicAccessBlock blocks public ACLs takes no public ACL.
     *
     * @param acl the ACL the request sets, null when it sets none
     * @param grantList whether the ACL came as a grant list (an {@code AccessControlPolicy} body), not a header
     * @throws S3Exception AccessControlListNotSupported when ACLs are disabled, AccessDenied for a public
     *     ACL that is blocked
     */
    static void check(BucketConfigurations configurations, String bucket, @Nullable CannedAcl acl, boolean grantList) {
        if (acl == null) {
            return;
        }
        if (configurations.aclsDisabled(bucket) && acl != CannedAcl.BUCKET_OWNER_FULL_CONTROL
                && !(grantList && acl == CannedAcl.PRIVATE)) {
            throw new S3Exception(S3Error.ACCESS_CONTROL_LIST_NOT_SUPPORTED);
        }
        if (configurations.publicAccessBlock(bucket).refuses(acl)) {
            throw new S3Exception(S3Error.ACCESS_DENIED, "Access Denied: the bucket's PublicAccessBlock blocks "
                    + "public ACLs, and " + acl.headerValue() + " is public.");
        }
    }

    /**
     * As {@link #check(BucketConfigurations, String, CannedAcl, boolean)}, for a bucket ACL (PutBucketAcl): a
     * grant list is taken by a bucket with ACLs disabled only when it is the owner's full control alone.
     */
    static void check(BucketConfigurations configurations, String bucket, BucketAcl acl, boolean grantList) {
        CannedAcl canned = acl.canned();
        if (canned != null) {
            check(configurations, bucket, canned, grantList);
            return;
        }
        if (configurations.aclsDisabled(bucket) && !acl.isOwnerFullControlOnly(BucketAcls.ownerId())) {
            throw new S3Exception(S3Error.ACCESS_CONTROL_LIST_NOT_SUPPORTED);
        }
        if (configurations.publicAccessBlock(bucket).refuses(acl)) {
            throw new S3Exception(S3Error.ACCESS_DENIED, "Access Denied: the bucket's PublicAccessBlock blocks "
                    + "public ACLs, and this ACL grants AllUsers or AuthenticatedUsers.");
        }
    }

    /** As {@link #check(BucketConfigurations, String, CannedAcl, boolean)}, for an {@code x-amz-acl} value already checked. */
    static void check(BucketConfigurations configurations, String bucket, @Nullable String cannedAcl) {
        check(configurations, bucket, cannedAcl == null ? null : CannedAcl.fromHeaderValue(cannedAcl), false);
    }

    /**
     * Refuses grant headers ({@code x-amz-grant-*}) on a bucket with ACLs disabled, as S3 refuses every
     * ACL but the owner's full control there. Checked before the headers are read, so that the
     * answer does not depend on what they name.
     *
     * @throws S3Exception AccessControlListNotSupported
     */
    static void refuseGrantHeaders(BucketConfigurations configurations, String bucket,
            Function<String, @Nullable String> headers) {
        if (ObjectAcls.GRANT_HEADERS.stream().anyMatch(name -> headers.apply(name) != null)
                && configurations.aclsDisabled(bucket)) {
            throw new S3Exception(S3Error.ACCESS_CONTROL_LIST_NOT_SUPPORTED);
        }
    }

    /**
     * Refuses to disable ACLs (BucketOwnerEnforced) on a bucket whose ACL grants others than its owner.
     *
     * @throws S3Exception InvalidBucketAclWithObjectOwnership
     */
    static void requireOwnerOnly(BucketAcl bucketAcl) {
        if (bucketAcl.grantsOthers(BucketAcls.ownerId())) {
            throw new S3Exception(S3Error.INVALID_BUCKET_ACL_WITH_OBJECT_OWNERSHIP);
        }
    }
}
