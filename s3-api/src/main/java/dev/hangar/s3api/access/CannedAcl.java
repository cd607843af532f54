package dev.hangar.s3api.access;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The canned ACLs of S3 ({@code x-amz-acl}). A bucket's or an object's ACL is one of them or a grant
 * list ({@link BucketAcl}, {@link ObjectAcl}); a grant list with the shape of a canned ACL is that
 * canned ACL ({@link #matching}).
 *
 * <p>The grants are those AWS documents: the owner always has {@code FULL_CONTROL};
 * {@code public-read} adds {@code READ} for AllUsers, {@code public-read-write} {@code READ} and
 * {@code WRITE} for AllUsers, {@code authenticated-read} {@code READ} for AuthenticatedUsers,
 * {@code log-delivery-write} {@code WRITE} and {@code READ_ACP} for LogDelivery; on an object,
 * {@code bucket-owner-read} and {@code bucket-owner-full-control} give the bucket owner {@code READ}
 * or {@code FULL_CONTROL}. S3 ignores the two bucket-owner ACLs on buckets, and so does Hangar.
 */
public enum CannedAcl {
    PRIVATE("private"),
    PUBLIC_READ("public-read"),
    PUBLIC_READ_WRITE("public-read-write"),
    AUTHENTICATED_READ("authenticated-read"),
    BUCKET_OWNER_READ("bucket-owner-read"),
    BUCKET_OWNER_FULL_CONTROL("bucket-owner-full-control"),
    LOG_DELIVERY_WRITE("log-delivery-write");

    /** What {@code READ} on a bucket allows: listing it. */
    static final Set<String> BUCKET_READ_ACTIONS = actions(
            S3Action.LIST_BUCKET, S3Action.LIST_BUCKET_VERSIONS, S3Action.LIST_BUCKET_MULTIPART_UPLOADS);
    /** What {@code WRITE} on a bucket allows: creating, overwriting and deleting its objects. */
    static final Set<String> BUCKET_WRITE_ACTIONS = actions(S3Action.PUT_OBJECT, S3Action.DELETE_OBJECT);
    /** What {@code READ} on an object allows: reading it. */
    static final Set<String> OBJECT_READ_ACTIONS = actions(
            S3Action.GET_OBJECT, S3Action.GET_OBJECT_VERSION, S3Action.GET_OBJECT_TORRENT);

    private final String headerValue;

    CannedAcl(String headerValue) {
        this.headerValue = headerValue;
    }

    /** The value of the {@code x-amz-acl} header, e.g. {@code public-read}. */
    public String headerValue() {
        return headerValue;
    }

    /**
     * Whether this ACL is public as S3 defines it for Block Public Access: it grants a permission to
     * AllUsers or to AuthenticatedUsers (every signed request, whatever key signed it).
     */
    public boolean isPublic() {
        return switch (this) {
            case PUBLIC_READ, PUBLIC_READ_WRITE, AUTHENTICATED_READ -> true;
            case PRIVATE, BUCKET_OWNER_READ, BUCKET_OWNER_FULL_CONTROL, LOG_DELIVERY_WRITE -> false;
        };
    }

    /**
     * Whether this ACL, set on a bucket, grants anyone but the owner: the public ACLs and
     * {@code log-delivery-write}. S3 refuses to disable ACLs (BucketOwnerEnforced) while it does.
     */
    public boolean grantsOthersOnABucket() {
        return isPublic() || this == LOG_DELIVERY_WRITE;
    }

    /**
     * The canned ACL an {@code x-amz-acl} header names.
     *
     * @throws S3Exception InvalidArgument when it names none
     */
    public static CannedAcl fromHeaderValue(String value) {
        for (CannedAcl acl : values()) {
            if (acl.headerValue.equals(value)) {
                return acl;
            }
        }
        throw new S3Exception(S3Error.INVALID_ARGUMENT, "The canned ACL '" + value + "' is not valid. Valid values: "
                + Arrays.stream(values()).map(CannedAcl::headerValue).collect(Collectors.joining(", ")) + ".");
    }

    /** The grants of this ACL on a bucket owned by {@code owner}. */
    public List<Grant> grants(Grantee.CanonicalUser owner) {
        List<Grant> grants = new ArrayList<>();
        grants.add(new Grant(owner, Permission.FULL_CONTROL));
        switch (this) {
            case PRIVATE, BUCKET_OWNER_READ, BUCKET_OWNER_FULL_CONTROL -> {
                // the owner alone
            }
            case PUBLIC_READ -> grants.add(new Grant(Grantee.Group.ALL_USERS, Permission.READ));
            case PUBLIC_READ_WRITE -> {
                grants.add(new Grant(Grantee.Group.ALL_USERS, Permission.READ));
                grants.add(new Grant(Grantee.Group.ALL_USERS, Permission.WRITE));
            }
            case AUTHENTICATED_READ -> grants.add(new Grant(Grantee.Group.AUTHENTICATED_USERS, Permission.READ));
            case LOG_DELIVERY_WRITE -> {
                grants.add(new Grant(Grantee.Group.LOG_DELIVERY, Permission.WRITE));
                grants.add(new Grant(Grantee.Group.LOG_DELIVERY, Permission.READ_ACP));
            }
        }
        return List.copyOf(grants);
    }

    /**
     * The grants of this ACL on an object owned by {@code owner} in a bucket owned by
     * {@code bucketOwner}. The bucket-owner ACLs add a grant only when the two owners differ;
     * {@code log-delivery-write} is a bucket ACL and gives an object no more than {@code private}.
     */
    public List<Grant> grants(Grantee.CanonicalUser owner, Grantee.CanonicalUser bucketOwner) {
        boolean sameOwner = owner.id().equals(bucketOwner.id());
        return switch (this) {
            case BUCKET_OWNER_READ -> sameOwner
                    ? PRIVATE.grants(owner)
                    : List.of(new Grant(owner, Permission.FULL_CONTROL), new Grant(bucketOwner, Permission.READ));
            case BUCKET_OWNER_FULL_CONTROL -> sameOwner
                    ? PRIVATE.grants(owner)
                    : List.of(new Grant(owner, Permission.FULL_CONTROL),
                            new Grant(bucketOwner, Permission.FULL_CONTROL));
            case LOG_DELIVERY_WRITE -> PRIVATE.grants(owner);
            case PRIVATE, PUBLIC_READ, PUBLIC_READ_WRITE, AUTHENTICATED_READ -> grants(owner);
        };
    }

    /** The canned ACL a bucket's grant list is, in any order, display names aside; empty when it is none. */
    public static Optional<CannedAcl> matching(Grantee.CanonicalUser owner, List<Grant> grants) {
        Set<Grant> given = normalized(grants);
        for (CannedAcl acl : List.of(PRIVATE, PUBLIC_READ, PUBLIC_READ_WRITE, AUTHENTICATED_READ, LOG_DELIVERY_WRITE)) {
            if (normalized(acl.grants(owner)).equals(given)) {
                return Optional.of(acl);
            }
        }
        return Optional.empty();
    }

    /** The canned ACL an object's grant list is, in any order, display names aside; empty when it is none. */
    public static Optional<CannedAcl> matching(
            Grantee.CanonicalUser owner, Grantee.CanonicalUser bucketOwner, List<Grant> grants) {
        Set<Grant> given = normalized(grants);
        for (CannedAcl acl : List.of(PRIVATE, PUBLIC_READ, PUBLIC_READ_WRITE, AUTHENTICATED_READ,
                BUCKET_OWNER_READ, BUCKET_OWNER_FULL_CONTROL)) {
            if (normalized(acl.grants(owner, bucketOwner)).equals(given)) {
                return Optional.of(acl);
            }
        }
        return Optional.empty();
    }

    /**
     * Whether the ACLs give a requester other than the owner an action: AllUsers grants apply to
     * everyone, AuthenticatedUsers grants to signed requests.
     *
     * <ul>
     *   <li>bucket {@code public-read}: {@code s3:ListBucket}, {@code s3:ListBucketVersions},
     *       {@code s3:ListBucketMultipartUploads};</li>
     *   <li>bucket {@code public-read-write}: those, and {@code s3:PutObject}, {@code s3:DeleteObject};</li>
     *   <li>bucket {@code authenticated-read}: the listing actions, for signed requests;</li>
     *   <li>object {@code public-read} or {@code public-read-write} ({@code WRITE} means nothing on an
     *       object): {@code s3:GetObject}, {@code s3:GetObjectVersion}, {@code s3:GetObjectTorrent} on it;</li>
     *   <li>object {@code authenticated-read}: the same, for signed requests.</li>
     * </ul>
     * A bucket's ACL never makes its objects readable. The bucket-owner ACLs grant the bucket owner,
     * whose access the caller decides from its key permission, and LogDelivery is never a requester,
     * so neither grants anything here.
     *
     * @param bucketAcl the bucket's ACL
     * @param objectAcl the object's ACL, for an action on an existing object; null otherwise
     * @param s3Action the IAM action, e.g. {@code s3:GetObject}
     * @param principal the access key id that signed the request, or null for an anonymous request
     */
    public static AclDecision allows(
            CannedAcl bucketAcl, @Nullable CannedAcl objectAcl, String s3Action, @Nullable String principal) {
        String action = s3Action.toLowerCase(Locale.ROOT);
        boolean signed = principal != null;
        if (BUCKET_READ_ACTIONS.contains(action)) {
            switch (bucketAcl) {
                case PUBLIC_READ, PUBLIC_READ_WRITE -> {
                    return AclDecision.grantedBy("the bucket ACL " + bucketAcl.headerValue + " grants AllUsers READ");
                }
                case AUTHENTICATED_READ -> {
                    if (signed) {
                        return AclDecision.grantedBy("the bucket ACL authenticated-read grants AuthenticatedUsers READ");
                    }
                }
                case PRIVATE, BUCKET_OWNER_READ, BUCKET_OWNER_FULL_CONTROL, LOG_DELIVERY_WRITE -> {
                    // no listing for others
                }
            }
        }
        if (BUCKET_WRITE_ACTIONS.contains(action) && bucketAcl == PUBLIC_READ_WRITE) {
            return AclDecision.grantedBy("the bucket ACL public-read-write grants AllUsers WRITE");
        }
        if (objectAcl != null && OBJECT_READ_ACTIONS.contains(action)) {
            switch (objectAcl) {
                case PUBLIC_READ, PUBLIC_READ_WRITE -> {
                    return AclDecision.grantedBy("the object ACL " + objectAcl.headerValue + " grants AllUsers READ");
                }
                case AUTHENTICATED_READ -> {
                    if (signed) {
                        return AclDecision.grantedBy("the object ACL authenticated-read grants AuthenticatedUsers READ");
                    }
                }
                case PRIVATE, BUCKET_OWNER_READ, BUCKET_OWNER_FULL_CONTROL, LOG_DELIVERY_WRITE -> {
                    // no reading for others
                }
            }
        }
        return AclDecision.notGranted("no ACL grant gives " + (signed ? "this key " : "anonymous requests ") + s3Action
                + " (bucket ACL " + bucketAcl.headerValue
                + (objectAcl != null ? ", object ACL " + objectAcl.headerValue : "") + ")");
    }

    static Set<String> actions(S3Action... actions) {
        return Arrays.stream(actions)
                .map(action -> action.iamName().toLowerCase(Locale.ROOT))
                .collect(Collectors.toUnmodifiableSet());
    }

    /** The grants as a set, canonical users by id alone. */
    private static Set<Grant> normalized(List<Grant> grants) {
        Set<Grant> set = new LinkedHashSet<>();
        for (Grant grant : grants) {
            Grantee grantee = switch (grant.grantee()) {
                case Grantee.CanonicalUser user -> new Grantee.CanonicalUser(user.id(), null);
                case Grantee.Group group -> group;
            };
            set.add(new Grant(grantee, grant.permission()));
        }
        return set;
    }
}
