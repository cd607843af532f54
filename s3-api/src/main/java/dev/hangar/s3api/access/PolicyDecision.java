package dev.hangar.s3api.access;

/** What a bucket policy says about one request, in the order AWS weighs the answers. */
public enum PolicyDecision {
    /** A statement with {@code "Effect": "Deny"} matches: nothing else can allow the request. */
    EXPLICIT_DENY,
    /** No Deny statement matches and an Allow statement does. */
    ALLOW,
    /** No statement matches: the policy neither allows nor denies, other grants decide. */
    NO_MATCH
}
