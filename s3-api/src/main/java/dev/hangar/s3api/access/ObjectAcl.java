package dev.hangar.s3api.access;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * An object version's ACL: the grants it holds, and the canned ACL they are when they were set as
 * one. A canned ACL weighs exactly as {@link CannedAcl#allows} says; a grant list (PutObject,
 * CopyObject or CreateMultipartUpload with {@code x-amz-grant-*} headers, PutObjectAcl with those or
 * an {@code AccessControlPolicy} that is not a canned ACL) gives each grantee what its permissions
 * cover on the object, as AWS maps them:
 *
 * <ul>
 *   <li>{@code READ}: reading it ({@code s3:GetObject}, {@code s3:GetObjectVersion},
 *       {@code s3:GetObjectTorrent});</li>
 *   <li>{@code READ_ACP}: {@code s3:GetObjectAcl}, {@code s3:GetObjectVersionAcl};</li>
 *   <li>{@code WRITE_ACP}: {@code s3:PutObjectAcl}, {@code s3:PutObjectVersionAcl};</li>
 *   <li>{@code WRITE}: nothing (S3 keeps it on an object, and it means nothing there);</li>
 *   <li>{@code FULL_CONTROL}: all of them.</li>
 * </ul>
 * Grantees are as on a bucket ({@link BucketAcl}): an access key by its canonical id, AllUsers,
 * AuthenticatedUsers; LogDelivery is never a requester.
 *
 * @param grants in the order they were given
 * @param canned the canned ACL these grants are, when set as one; null for a grant list
 */
public record ObjectAcl(List<Grant> grants, @Nullable CannedAcl canned) {
    private static final Set<String> READ_ACP_ACTIONS = CannedAcl.actions(
            S3Action.GET_OBJECT_ACL, S3Action.GET_OBJECT_VERSION_ACL);
    private static final Set<String> WRITE_ACP_ACTIONS = CannedAcl.actions(
            S3Action.PUT_OBJECT_ACL, S3Action.PUT_OBJECT_VERSION_ACL);

    public ObjectAcl {
        grants = List.copyOf(grants);
    }

    /** The canned ACL {@code acl} on an object owned, as its bucket, by {@code owner}. */
    public static ObjectAcl canned(CannedAcl acl, Grantee.CanonicalUser owner) {
        return new ObjectAcl(acl.grants(owner, owner), acl);
    }

    /** A grant list, stored as given. */
    public static ObjectAcl granted(List<Grant> grants) {
        return new ObjectAcl(grants, null);
    }

    /** Whether a grant is to AllUsers or AuthenticatedUsers, which makes the ACL public for Block Public Access. */
    public boolean isPublic() {
        return canned != null ? canned.isPublic() : grants.stream().anyMatch(Grant::isPublic);
    }

    /**
     * Whether the ACL is the owner's full control alone, the one ACL an object in a bucket with ACLs
     * disabled takes: {@code bucket-owner-full-control}, or a grant list that says the same.
     */
    public boolean isOwnerFullControlOnly(String ownerId) {
        if (canned != null) {
            return canned == CannedAcl.BUCKET_OWNER_FULL_CONTROL;
        }
        return !grants.isEmpty() && grants.stream().allMatch(grant -> grant.isFullControlFor(ownerId));
    }

    /** This ACL without its public grants, as access decisions weigh it when public ACLs are ignored. */
    public ObjectAcl withoutPublicGrants() {
        if (canned != null) {
            return canned.isPublic() ? new ObjectAcl(List.of(), CannedAcl.PRIVATE) : this;
        }
        return granted(grants.stream().filter(grant -> !grant.isPublic()).toList());
    }

    /**
     * Whether the object's ACL gives a requester other than the owner an action on the object.
     *
     * @param s3Action the IAM action, e.g. {@code s3:GetObject}
     * @param principal the access key id that signed the request, or null for an anonymous request
     */
    public AclDecision allows(String s3Action, @Nullable String principal) {
        if (canned != null) {
            return CannedAcl.allows(CannedAcl.PRIVATE, canned, s3Action, principal);
        }
        Set<Permission> needed = permissionsFor(s3Action.toLowerCase(Locale.ROOT));
        for (Grant grant : grants) {
            if (grant.gives(needed, principal)) {
                return AclDecision.grantedBy("the object ACL grants " + grant.describe());
            }
        }
        return AclDecision.notGranted("no grant of the object ACL gives "
                + (principal != null ? "this key " : "anonymous requests ") + s3Action);
    }

    private static Set<Permission> permissionsFor(String action) {
        Set<Permission> permissions = EnumSet.noneOf(Permission.class);
        if (CannedAcl.OBJECT_READ_ACTIONS.contains(action)) {
            permissions.add(Permission.READ);
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
