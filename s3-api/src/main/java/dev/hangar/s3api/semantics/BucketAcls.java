package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.access.CannedAcl;
import dev.hangar.s3api.access.Grant;
import dev.hangar.s3api.access.Grantee;
import dev.hangar.s3api.access.Permission;
import dev.hangar.s3api.request.S3Request;
import dev.hangar.s3api.xml.AccessControlPolicy;
import dev.hangar.s3api.xml.Owner;
import dev.hangar.s3api.xml.S3Xml;
import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A bucket's ACL as S3 shows it and takes it: the truthful grants of its canned ACL in an {@code
 * AccessControlPolicy}, and the canned ACL that a PutBucketAcl request (an {@code x-amz-acl}
 * header, or a grant list shaped like a canned ACL) asks for.
 */
final class BucketAcls {
    /** Hangar has one tenant, so one owner of every bucket. */
    private static final Owner OWNER = Documents.OWNER;

    private static final Grantee.CanonicalUser OWNER_GRANTEE = new Grantee.CanonicalUser(OWNER.id(), OWNER.displayName());

    /** The headers that grant permissions one by one, which Hangar does not store. */
    private static final Set<String> GRANT_HEADERS = Set.of("x-amz-grant-full-control", "x-amz-grant-read",
            "x-amz-grant-read-acp", "x-amz-grant-write", "x-amz-grant-write-acp");

    private BucketAcls() {}

    /** GetBucketAcl's document for a bucket with this canned ACL. */
    static byte[] render(CannedAcl acl) {
        List<dev.hangar.s3api.xml.Grant> grants = acl.grants(OWNER_GRANTEE).stream().map(BucketAcls::toDocument).toList();
        return S3Xml.renderAccessControlPolicy(new AccessControlPolicy(OWNER, grants));
    }

    /**
     * The canned ACL a PutBucketAcl request sets. {@code document} is the request body, already read
     * to its end (empty when the client sent none).
     *
     * @throws S3Exception InvalidRequest for a canned ACL beside grant headers, UnexpectedContent for a
     *     canned ACL beside a body, NotImplemented for grant headers or a grant list that is not a canned
     *     ACL, MissingRequestBodyError for neither header nor body, and what the document parser throws
     */
    static CannedAcl requested(S3Request request, byte[] document) {
        String canned = request.header("x-amz-acl");
        boolean grantHeaders = GRANT_HEADERS.stream().anyMatch(name -> request.headers().has(name));
        if (canned != null) {
            if (grantHeaders) {
                throw new S3Exception(S3Error.INVALID_REQUEST,
                        "Specifying both Canned ACLs and Header Grants is not allowed");
            }
            if (document.length > 0) {
                throw new S3Exception(S3Error.UNEXPECTED_CONTENT);
            }
            return CannedAcl.fromHeaderValue(canned.strip());
        }
        if (grantHeaders) {
            throw new S3Exception(S3Error.NOT_IMPLEMENTED, "Hangar stores only canned ACLs: set the bucket ACL with the "
                    + "x-amz-acl header or an AccessControlPolicy shaped like a canned ACL, not x-amz-grant-* headers.");
        }
        if (document.length == 0) {
            throw new S3Exception(S3Error.MISSING_REQUEST_BODY_ERROR);
        }
        AccessControlPolicy policy = S3Xml.parseAccessControlPolicy(new ByteArrayInputStream(document));
        List<Grant> grants = policy.grants().stream().map(BucketAcls::fromDocument).toList();
        return CannedAcl.fromGrants(OWNER_GRANTEE, grants);
    }

    private static dev.hangar.s3api.xml.Grant toDocument(Grant grant) {
        dev.hangar.s3api.xml.Grantee grantee = switch (grant.grantee()) {
            case Grantee.CanonicalUser user -> new dev.hangar.s3api.xml.Grantee.CanonicalUser(user.id(), user.displayName());
            case Grantee.Group group -> new dev.hangar.s3api.xml.Grantee.Group(group.uri());
        };
        return new dev.hangar.s3api.xml.Grant(grantee, dev.hangar.s3api.xml.Grant.Permission.valueOf(grant.permission().name()));
    }

    private static Grant fromDocument(dev.hangar.s3api.xml.Grant grant) {
        Grantee grantee = switch (grant.grantee()) {
            case dev.hangar.s3api.xml.Grantee.CanonicalUser user -> canonicalUser(user.id(), user.displayName());
            case dev.hangar.s3api.xml.Grantee.Group group -> new Grantee.Group(group.uri());
            case dev.hangar.s3api.xml.Grantee.AmazonCustomerByEmail ignored ->
                    throw new S3Exception(S3Error.UNRESOLVABLE_GRANT_BY_EMAIL_ADDRESS);
        };
        return new Grant(grantee, Permission.valueOf(grant.permission().name()));
    }

    private static Grantee.CanonicalUser canonicalUser(String id, @Nullable String displayName) {
        if (id.isBlank()) {
            throw new S3Exception(S3Error.MALFORMED_ACL_ERROR);
        }
        return new Grantee.CanonicalUser(id, displayName);
    }
}
