package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.access.BucketAcl;
import dev.hangar.s3api.access.CannedAcl;
import dev.hangar.s3api.access.ObjectAcl;
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
     * Refuses an object ACL the bucket does not take. A bucket whose Object Ownership is
     * BucketOwnerEnforced has ACLs disabled and takes only {@code bucket-owner-full-control}, or a
     * grant list equivalent to it (full control for the owner alone: Hangar has one owner of buckets
     * and objects). A bucket whose PublicAccessBlock blocks public ACLs takes no public ACL.
     *
     * @param acl the ACL the request sets, null when it sets none
     * @param grantList whether the ACL came as a grant list (an {@code AccessControlPolicy} body), not a header
     * @throws S3Exception AccessControlListNotSupported when ACLs are disabled, AccessDenied for a public
     *     ACL that is blocked
     */
    static void check(BucketConfigurations configurations, String bucket, @Nullable ObjectAcl acl, boolean grantList) {
        if (acl == null) {
            return;
        }
        CannedAcl canned = acl.canned();
        if (configurations.aclsDisabled(bucket) && !acl.isOwnerFullControlOnly(BucketAcls.ownerId())
                && !(grantList && canned == CannedAcl.PRIVATE)) {
            throw new S3Exception(S3Error.ACCESS_CONTROL_LIST_NOT_SUPPORTED);
        }
        if (configurations.publicAccessBlock(bucket).refuses(acl)) {
            throw blockedPublicAcl(canned);
        }
    }

    /**
     * As {@link #check(BucketConfigurations, String, ObjectAcl, boolean)}, for a bucket ACL (PutBucketAcl,
     * CreateBucket): ACLs disabled take the owner's full control alone, given as {@code private} (a
     * bucket's {@code bucket-owner-full-control} is {@code private}) or as a grant list.
     */
    static void check(BucketConfigurations configurations, String bucket, BucketAcl acl, boolean grantList) {
        CannedAcl canned = acl.canned();
        boolean ownerOnly = canned != null
                ? canned == CannedAcl.BUCKET_OWNER_FULL_CONTROL || grantList && canned == CannedAcl.PRIVATE
                : acl.isOwnerFullControlOnly(BucketAcls.ownerId());
        if (configurations.aclsDisabled(bucket) && !ownerOnly) {
            throw new S3Exception(S3Error.ACCESS_CONTROL_LIST_NOT_SUPPORTED);
        }
        if (configurations.publicAccessBlock(bucket).refuses(acl)) {
            throw blockedPublicAcl(canned);
        }
    }

    private static S3Exception blockedPublicAcl(@Nullable CannedAcl canned) {
        return new S3Exception(S3Error.ACCESS_DENIED, "Access Denied: the bucket's PublicAccessBlock blocks public ACLs, and "
                + (canned != null ? canned.headerValue() + " is public." : "this ACL grants AllUsers or AuthenticatedUsers."));
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
        if (GrantHeaders.present(headers) && configurations.aclsDisabled(bucket)) {
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
