package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.access.CannedAcl;
import org.jspecify.annotations.Nullable;

/**
 * What a bucket's settings say about a request that sets an ACL: PutBucketAcl, PutObjectAcl, and the
 * {@code x-amz-acl} of PutObject, CopyObject, CreateMultipartUpload and a browser upload. Checked
 * before anything is stored.
 */
final class AclWrites {
    private AclWrites() {}

    /**
     * @param acl the ACL the request sets, null when it sets none
     * @throws S3Exception AccessDenied for a public ACL on a bucket whose PublicAccessBlock blocks public ACLs
     */
    static void check(BucketConfigurations configurations, String bucket, @Nullable CannedAcl acl) {
        if (acl == null) {
            return;
        }
        if (configurations.publicAccessBlock(bucket).refuses(acl)) {
            throw new S3Exception(S3Error.ACCESS_DENIED, "Access Denied: the bucket's PublicAccessBlock blocks "
                    + "public ACLs, and " + acl.headerValue() + " is public.");
        }
    }

    /** As {@link #check(BucketConfigurations, String, CannedAcl)}, for an {@code x-amz-acl} value already checked. */
    static void check(BucketConfigurations configurations, String bucket, @Nullable String cannedAcl) {
        check(configurations, bucket, cannedAcl == null ? null : CannedAcl.fromHeaderValue(cannedAcl));
    }
}
