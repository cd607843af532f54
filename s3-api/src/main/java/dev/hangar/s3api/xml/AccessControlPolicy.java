package dev.hangar.s3api.xml;

import java.util.List;
import java.util.Objects;

/**
 * An access control list, the document of Put/GetBucketAcl and Put/GetObjectAcl (root {@code
 * AccessControlPolicy}). Rendered as {@code Owner}, then {@code AccessControlList} holding every
 * {@code Grant}, as S3 answers; each {@code Grantee} declares {@code xmlns:xsi} and carries {@code
 * xsi:type}, which is how S3 types it.
 *
 * @param grants at most {@link S3Xml#MAXIMUM_GRANTS}, in the order given
 */
public record AccessControlPolicy(Owner owner, List<Grant> grants) {
    public AccessControlPolicy {
        Objects.requireNonNull(owner, "owner is required");
        grants = List.copyOf(grants);
        if (grants.size() > S3Xml.MAXIMUM_GRANTS) {
            throw new IllegalArgumentException(
                    "an ACL has at most " + S3Xml.MAXIMUM_GRANTS + " grants: " + grants.size());
        }
    }
}
