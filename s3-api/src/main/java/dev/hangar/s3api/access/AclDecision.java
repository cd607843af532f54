package dev.hangar.s3api.access;

import java.util.Objects;

/**
 * Whether a bucket's or an object's ACL gives a requester an action, and why.
 *
 * @param granted whether an ACL grant covers the action for the requester
 * @param reason the grant that does, or why none does
 */
public record AclDecision(boolean granted, String reason) {
    public AclDecision {
        Objects.requireNonNull(reason, "reason");
    }

    static AclDecision grantedBy(String reason) {
        return new AclDecision(true, reason);
    }

    static AclDecision notGranted(String reason) {
        return new AclDecision(false, reason);
    }
}
