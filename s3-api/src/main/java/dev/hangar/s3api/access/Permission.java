package dev.hangar.s3api.access;

/** The permissions an ACL grant gives, named as in the {@code Permission} element of S3's ACL documents. */
public enum Permission {
    FULL_CONTROL,
    WRITE,
    WRITE_ACP,
    READ,
    READ_ACP
}
