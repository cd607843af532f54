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
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Object ACLs as S3 takes and shows them: the canned ACL of an {@code x-amz-acl} header on a write
 * or on PutObjectAcl, a grant list shaped like a canned ACL, and the truthful grants GetObjectAcl
 * answers. Hangar has one tenant, so one canonical owner ({@link Documents#OWNER}) owns every bucket
 * and object. An object version records only a canned ACL, so grants header by header ({@code
 * x-amz-grant-*}) and grant lists of other shapes are refused on objects with NotImplemented (bucket
 * grant lists are {@link BucketAcls}').
 */
final class ObjectAcls {
    static final String ACL_HEADER = "x-amz-acl";
    static final List<String> GRANT_HEADERS = List.of("x-amz-grant-full-control", "x-amz-grant-read",
            "x-amz-grant-read-acp", "x-amz-grant-write", "x-amz-grant-write-acp");

    private static final Owner OWNER = Documents.OWNER;
    private static final Grantee.CanonicalUser OWNER_GRANTEE = new Grantee.CanonicalUser(OWNER.id(), OWNER.displayName());

    private ObjectAcls() {}

    /**
     * The canned ACL an object write asks for (PutObject, CopyObject, CreateMultipartUpload) as
     * its header value, null when it names none.
     *
     * @throws S3Exception InvalidArgument for an unknown canned ACL, InvalidRequest for a canned ACL
     *     beside grant headers, NotImplemented for grant headers
     */
    static @Nullable String forWrite(Function<String, @Nullable String> headers) {
        String canned = headers.apply(ACL_HEADER);
        refuseGrantHeaders(headers, canned != null);
        return canned == null ? null : CannedAcl.fromHeaderValue(canned.strip()).headerValue();
    }

    /** GetObjectAcl's document for an object with this canned ACL (null is private). */
    static byte[] render(@Nullable String cannedAcl) {
        CannedAcl acl = cannedAcl == null ? CannedAcl.PRIVATE : CannedAcl.fromHeaderValue(cannedAcl);
        List<dev.hangar.s3api.xml.Grant> grants = acl.grants(OWNER_GRANTEE, OWNER_GRANTEE).stream()
                .map(ObjectAcls::toDocument)
                .toList();
        return S3Xml.renderAccessControlPolicy(new AccessControlPolicy(OWNER, grants));
    }

    /**
     * The canned ACL a PutObjectAcl request sets: its {@code x-amz-acl} header, or its body (already
     * read to its end, empty when none was sent) when that is a grant list shaped like a canned ACL.
     *
     * @throws S3Exception UnexpectedContent for a header beside a body, NotImplemented for grant
     *     headers or other grant lists, MissingSecurityHeader for neither header nor body, and what
     *     the document parser throws
     */
    static CannedAcl requested(S3Request request, byte[] document) {
        String canned = forWrite(request::header);
        if (canned != null) {
            if (document.length > 0) {
                throw new S3Exception(S3Error.UNEXPECTED_CONTENT);
            }
            return CannedAcl.fromHeaderValue(canned);
        }
        if (document.length == 0) {
            throw new S3Exception(S3Error.MISSING_SECURITY_HEADER,
                    "Your request was missing a required header: x-amz-acl, or an AccessControlPolicy body.");
        }
        AccessControlPolicy policy = S3Xml.parseAccessControlPolicy(new ByteArrayInputStream(document));
        List<Grant> grants = policy.grants().stream().map(ObjectAcls::fromDocument).toList();
        return CannedAcl.fromGrants(OWNER_GRANTEE, OWNER_GRANTEE, grants);
    }

    private static void refuseGrantHeaders(Function<String, @Nullable String> headers, boolean canned) {
        List<String> given = GRANT_HEADERS.stream().filter(name -> headers.apply(name) != null).toList();
        if (given.isEmpty()) {
            return;
        }
        if (canned) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "Specifying both Canned ACLs and Header Grants is not allowed");
        }
        throw new S3Exception(S3Error.NOT_IMPLEMENTED, "Hangar stores only canned ACLs on objects (the x-amz-acl "
                + "header; grant lists are taken on buckets only): "
                + String.join(", ", given)
                + (given.size() == 1 ? " is" : " are") + " not implemented.");
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
            case dev.hangar.s3api.xml.Grantee.CanonicalUser user -> {
                if (user.id().isBlank()) {
                    throw new S3Exception(S3Error.MALFORMED_ACL_ERROR);
                }
                yield new Grantee.CanonicalUser(user.id(), user.displayName());
            }
            case dev.hangar.s3api.xml.Grantee.Group group -> new Grantee.Group(group.uri());
            case dev.hangar.s3api.xml.Grantee.AmazonCustomerByEmail ignored ->
                    throw new S3Exception(S3Error.UNRESOLVABLE_GRANT_BY_EMAIL_ADDRESS);
        };
        return new Grant(grantee, Permission.valueOf(grant.permission().name()));
    }
}
