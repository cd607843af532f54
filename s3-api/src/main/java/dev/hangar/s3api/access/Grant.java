package dev.hangar.s3api.access;

import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One entry of an ACL: a permission given to a grantee.
 *
 * @param grantee whom the permission is given to
 * @param permission what is given
 */
public record Grant(Grantee grantee, Permission permission) {
    public Grant {
        Objects.requireNonNull(grantee, "grantee");
        Objects.requireNonNull(permission, "permission");
    }

    /** Whether the grant is to AllUsers or AuthenticatedUsers, which makes its ACL public for Block Public Access. */
    public boolean isPublic() {
        return grantee.equals(Grantee.Group.ALL_USERS) || grantee.equals(Grantee.Group.AUTHENTICATED_USERS);
    }

    /** Whether the grant is full control for the user with this canonical id. */
    public boolean isFullControlFor(String id) {
        return permission == Permission.FULL_CONTROL && grantee instanceof Grantee.CanonicalUser user && user.id().equals(id);
    }

    /**
     * Whether the grant gives a request an action that needs one of these permissions: its grantee
     * covers the requester (the key by its canonical id, AllUsers everyone, AuthenticatedUsers every
     * signed request; LogDelivery is never a requester) and it grants one of them, or full control.
     *
     * @param principal the access key id that signed the request, or null for an anonymous request
     */
    boolean gives(Set<Permission> needed, @Nullable String principal) {
        if (needed.isEmpty() || !(needed.contains(permission) || permission == Permission.FULL_CONTROL)) {
            return false;
        }
        return switch (grantee) {
            case Grantee.CanonicalUser user -> user.id().equals(principal);
            case Grantee.Group group -> group.equals(Grantee.Group.ALL_USERS)
                    || group.equals(Grantee.Group.AUTHENTICATED_USERS) && principal != null;
        };
    }

    /** The grant in words, for the reason of an access decision: e.g. {@code user AKEXAMPLE READ}. */
    String describe() {
        String whom = switch (grantee) {
            case Grantee.CanonicalUser user -> "user " + user.id();
            case Grantee.Group group -> "group " + group.uri();
        };
        return whom + " " + permission;
    }
}
