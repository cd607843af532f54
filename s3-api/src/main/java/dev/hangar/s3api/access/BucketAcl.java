package dev.hangar.s3api.access;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A bucket's ACL: the grants it holds, and the canned ACL they are when they were set as one. A
 * canned ACL weighs exactly as {@link CannedAcl#allows} says; a grant list (PutBucketAcl with
 * {@code x-amz-grant-*} headers or an {@code AccessControlPolicy} that is not a canned ACL) gives
 * each grantee what its permissions cover on the bucket:
 *
 * <ul>
 *   <li>{@code READ}: listing it ({@code s3:ListBucket}, {@code s3:ListBucketVersions},
 *       {@code s3:ListBucketMultipartUploads});</li>
 *   <li>{@code WRITE}: creating, overwriting and deleting its objects ({@code s3:PutObject},
 *       {@code s3:DeleteObject});</li>
 *   <li>{@code READ_ACP}: {@code s3:GetBucketAcl}; {@code WRITE_ACP}: {@code s3:PutBucketAcl};</li>
 *   <li>{@code FULL_CONTROL}: all of them.</li>
 * </ul>
 * A canonical user grantee is an access key by its id (Hangar's canonical id of a key, see
 * docs/s3-compatibility.md); AllUsers covers every request, AuthenticatedUsers every signed one;
 * LogDelivery is never a requester.
 *
 * @param grants in the order they were given
 * @param canned the canned ACL these grants are, when set as one; null for a grant list
 */
public record BucketAcl(List<Grant> grants, @Nullable CannedAcl canned) {
    private static final Set<String> READ_ACP_ACTIONS = Set.of(S3Action.GET_BUCKET_ACL.iamName().toLowerCase(Locale.ROOT));
    private static final Set<String> WRITE_ACP_ACTIONS = Set.of(S3Action.PUT_BUCKET_ACL.iamName().toLowerCase(Locale.ROOT));

    public BucketAcl {
        grants = List.copyOf(grants);
    }

    /** The canned ACL {@code acl} on a bucket owned by {@code owner}. */
    public static BucketAcl canned(CannedAcl acl, Grantee.CanonicalUser owner) {
        return new BucketAcl(acl.grants(owner), acl);
    }

    /** A grant list, stored as given. */
    public static BucketAcl granted(List<Grant> grants) {
        return new BucketAcl(grants, null);
    }

    /** Whether a grant is to AllUsers or AuthenticatedUsers, which makes the ACL public for Block Public Access. */
    public boolean isPublic() {
        return canned != null ? canned.isPublic() : grants.stream().anyMatch(Grant::isPublic);
    }

    /**
     * Whether the ACL grants anyone but the owner; S3 refuses to disable ACLs (BucketOwnerEnforced)
     * while it does.
     */
    public boolean grantsOthers(String ownerId) {
        if (canned != null) {
            return canned.grantsOthersOnABucket();
        }
        return grants.stream().anyMatch(grant -> !(grant.grantee() instanceof Grantee.CanonicalUser user
                && user.id().equals(ownerId)));
    }

    /** Whether the ACL is the owner's full control alone, the one ACL a bucket with ACLs disabled takes. */
    public boolean isOwnerFullControlOnly(String ownerId) {
        if (canned != null) {
            return canned == CannedAcl.PRIVATE || canned == CannedAcl.BUCKET_OWNER_FULL_CONTROL;
        }
        return !grants.isEmpty() && grants.stream().allMatch(grant -> grant.isFullControlFor(ownerId));
    }

    /** This ACL without its public grants, as access decisions weigh it when public ACLs are ignored. */
    public BucketAcl withoutPublicGrants() {
        if (canned != null) {
            return canned.isPublic() ? new BucketAcl(List.of(), CannedAcl.PRIVATE) : this;
        }
        return granted(grants.stream().filter(grant -> !grant.isPublic()).toList());
    }

    /**
     * Whether the bucket ACL gives a requester other than the owner an action on the bucket.
     *
     * @param s3Action the IAM action, e.g. {@code s3:ListBucket}
     * @param principal the access key id that signed the request, or null for an anonymous request
     */
    public AclDecision allows(String s3Action, @Nullable String principal) {
        if (canned != null) {
            return CannedAcl.allows(canned, null, s3Action, principal);
        }
        Set<Permission> needed = permissionsFor(s3Action.toLowerCase(Locale.ROOT));
        for (Grant grant : grants) {
            if (grant.gives(needed, principal)) {
                return AclDecision.grantedBy("the bucket ACL grants " + grant.describe());
            }
        }
        return AclDecision.notGranted("no grant of the bucket ACL gives "
                + (principal != null ? "this key " : "anonymous requests ") + s3Action);
    }

    /** The grantees of this ACL that are canonical users, by id. */
    public Set<String> canonicalUserIds() {
        return grants.stream()
                .map(Grant::grantee)
                .filter(Grantee.CanonicalUser.class::isInstance)
                .map(grantee -> ((Grantee.CanonicalUser) grantee).id())
                .collect(Collectors.toUnmodifiableSet());
    }

    private static Set<Permission> permissionsFor(String action) {
        Set<Permission> permissions = EnumSet.noneOf(Permission.class);
        if (CannedAcl.BUCKET_READ_ACTIONS.contains(action)) {
            permissions.add(Permission.READ);
        }
        if (CannedAcl.BUCKET_WRITE_ACTIONS.contains(action)) {
            permissions.add(Permission.WRITE);
        }
        if (READ_ACP_ACTIONS.contains(action)) {
            permissions.add(Permission.READ_ACP);
        }
        if (WRITE_ACP_ACTIONS.contains(action)) {
            permissions.add(Permission.WRITE_ACP);
        }
        return permissions;
    }
}
