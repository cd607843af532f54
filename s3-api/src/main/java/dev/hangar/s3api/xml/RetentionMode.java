package dev.hangar.s3api.xml;

/** An Object Lock retention mode; the constant's name is the value on the wire. */
public enum RetentionMode {
    /** Users with {@code s3:BypassGovernanceRetention} may shorten or remove the retention. */
    GOVERNANCE,
    /** No one may shorten or remove the retention, or change its mode. */
    COMPLIANCE
}
