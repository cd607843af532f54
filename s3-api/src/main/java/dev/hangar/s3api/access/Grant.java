package dev.hangar.s3api.access;

import java.util.Objects;

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
}
