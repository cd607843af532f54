package dev.hangar.s3api.xml;

import java.util.Objects;

/** One {@code Grant} of an ACL: {@code Grantee}, then {@code Permission}. */
public record Grant(Grantee grantee, Permission permission) {
    public Grant {
        Objects.requireNonNull(grantee, "grantee is required");
        Objects.requireNonNull(permission, "permission is required");
    }

    /** A grant's {@code Permission}; the constant's name is the value on the wire. */
    public enum Permission {
        FULL_CONTROL,
        WRITE,
        WRITE_ACP,
        READ,
        READ_ACP
    }
}
