package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.access.BucketAcl;
import dev.hangar.s3api.access.CannedAcl;
import dev.hangar.s3api.access.Grant;
import dev.hangar.s3api.access.Grantee;
import dev.hangar.s3api.access.Permission;
import dev.hangar.s3api.request.S3Request;
import dev.hangar.s3api.xml.AccessControlPolicy;
import dev.hangar.s3api.xml.Owner;
import dev.hangar.s3api.xml.S3Xml;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A bucket's ACL as S3 shows it and takes it: the grants of its canned ACL or its grant list in an
 * {@code AccessControlPolicy}, and the ACL that a PutBucketAcl or CreateBucket request (an {@code
 * x-amz-acl} header, {@code x-amz-grant-*} headers, or a grant list) asks for.
 *
 * <p>A canonical user is an access key: the owner's canonical id is {@link Documents#OWNER}'s ({@code
 * hangar}, the root key's account), every other key's is its access key id. A grant to an id that
 * is neither is InvalidArgument "Invalid id", as S3 answers an unknown canonical user.
 *
 * <p>Stored as the bucket configuration of kind {@code acl}: a canned ACL as its name (the form
 * Hangar has always stored), a grant list as the {@code AccessControlPolicy} document Hangar
 * renders. The first byte tells them apart: no canned name starts with {@code <}.
 */
final class BucketAcls {
    /** Hangar has one tenant, so one owner of every bucket. */
    private static final Owner OWNER = Documents.OWNER;

    private static final Grantee.CanonicalUser OWNER_GRANTEE = new Grantee.CanonicalUser(OWNER.id(), OWNER.displayName());

    /** A bucket's ACL when none was set. */
    static final BucketAcl PRIVATE = BucketAcl.canned(CannedAcl.PRIVATE, OWNER_GRANTEE);

    private BucketAcls() {}

    /** The owner's canonical id. */
    static String ownerId() {
        return OWNER.id();
    }

    /** The ACL the canned ACL {@code acl} is on a bucket. */
    static BucketAcl canned(CannedAcl acl) {
        return BucketAcl.canned(acl, OWNER_GRANTEE);
    }

    /** GetBucketAcl's document for a bucket with this ACL. */
    static byte[] render(BucketAcl acl) {
        List<dev.hangar.s3api.xml.Grant> grants = acl.grants().stream().map(BucketAcls::toDocument).toList();
        return S3Xml.renderAccessControlPolicy(new AccessControlPolicy(OWNER, grants));
    }

    /** The stored form of an ACL: a canned ACL's name, or a grant list's document. */
    static byte[] stored(BucketAcl acl) {
        CannedAcl canned = acl.canned();
        return canned != null ? canned.headerValue().getBytes(StandardCharsets.UTF_8) : render(acl);
    }

    /** The ACL a stored form holds (see {@link #stored}). */
    static BucketAcl read(byte[] stored) {
        if (stored.length > 0 && stored[0] == '<') {
            AccessControlPolicy policy = S3Xml.parseAccessControlPolicy(new ByteArrayInputStream(stored));
            return BucketAcl.granted(policy.grants().stream().map(BucketAcls::fromDocument).toList());
        }
        return canned(CannedAcl.fromHeaderValue(new String(stored, StandardCharsets.UTF_8)));
    }

    /**
     * The ACL a PutBucketAcl request sets. {@code document} is the request body, already read
     * to its end (empty when the client sent none).
     *
     * @param knownId whether a canonical id names an access key other than the owner's
     * @throws S3Exception InvalidRequest for a canned ACL beside grant headers, UnexpectedContent for a
     *     canned ACL beside a body, InvalidArgument for a malformed grant header or an unknown id,
     *     MissingRequestBodyError for neither header nor body, and what the document parser throws
     */
    static BucketAcl requested(S3Request request, byte[] document, Predicate<String> knownId) {
        String canned = request.header("x-amz-acl");
        boolean grantHeaders = GrantHeaders.present(request::header);
        if (canned != null) {
            if (grantHeaders) {
                throw bothCannedAndGrants();
            }
            if (document.length > 0) {
                throw new S3Exception(S3Error.UNEXPECTED_CONTENT);
            }
            return canned(CannedAcl.fromHeaderValue(canned.strip()));
        }
        if (grantHeaders) {
            if (document.length > 0) {
                throw new S3Exception(S3Error.UNEXPECTED_CONTENT);
            }
            return BucketAcl.granted(checkedIds(GrantHeaders.parse(request::header), knownId));
        }
        if (document.length == 0) {
            throw new S3Exception(S3Error.MISSING_REQUEST_BODY_ERROR);
        }
        AccessControlPolicy policy = S3Xml.parseAccessControlPolicy(new ByteArrayInputStream(document));
        List<Grant> grants = checkedIds(policy.grants().stream().map(BucketAcls::fromRequest).toList(), knownId);
        return CannedAcl.matching(OWNER_GRANTEE, grants).map(BucketAcls::canned).orElseGet(() -> BucketAcl.granted(grants));
    }

    /**
     * The ACL a CreateBucket request sets, null when it sets none: its {@code x-amz-acl} or its
     * {@code x-amz-grant-*} headers.
     *
     * @throws S3Exception as {@link #requested} for the headers
     */
    static @Nullable BucketAcl forCreate(Function<String, @Nullable String> headers, Predicate<String> knownId) {
        String canned = headers.apply("x-amz-acl");
        boolean grantHeaders = GrantHeaders.present(headers);
        if (canned != null && grantHeaders) {
            throw bothCannedAndGrants();
        }
        if (canned != null) {
            return canned(CannedAcl.fromHeaderValue(canned.strip()));
        }
        return grantHeaders ? BucketAcl.granted(checkedIds(GrantHeaders.parse(headers), knownId)) : null;
    }

    private static S3Exception bothCannedAndGrants() {
        return new S3Exception(S3Error.INVALID_REQUEST, "Specifying both Canned ACLs and Header Grants is not allowed");
    }

    /** The grants, with the owner's display name on its grants; an id that names no key is refused. */
    private static List<Grant> checkedIds(List<Grant> grants, Predicate<String> knownId) {
        List<Grant> checked = new ArrayList<>();
        for (Grant grant : grants) {
            if (grant.grantee() instanceof Grantee.CanonicalUser user) {
                if (user.id().equals(OWNER.id())) {
                    checked.add(new Grant(OWNER_GRANTEE, grant.permission()));
                    continue;
                }
                if (!knownId.test(user.id())) {
                    throw new S3Exception(S3Error.INVALID_ARGUMENT, "Invalid id");
                }
                checked.add(new Grant(new Grantee.CanonicalUser(user.id(), null), grant.permission()));
            } else {
                checked.add(grant);
            }
        }
        return List.copyOf(checked);
    }

    private static dev.hangar.s3api.xml.Grant toDocument(Grant grant) {
        dev.hangar.s3api.xml.Grantee grantee = switch (grant.grantee()) {
            case Grantee.CanonicalUser user -> new dev.hangar.s3api.xml.Grantee.CanonicalUser(user.id(), user.displayName());
            case Grantee.Group group -> new dev.hangar.s3api.xml.Grantee.Group(group.uri());
        };
        return new dev.hangar.s3api.xml.Grant(grantee, dev.hangar.s3api.xml.Grant.Permission.valueOf(grant.permission().name()));
    }

    /** A stored grant, read back. */
    private static Grant fromDocument(dev.hangar.s3api.xml.Grant grant) {
        Grantee grantee = switch (grant.grantee()) {
            case dev.hangar.s3api.xml.Grantee.CanonicalUser user -> new Grantee.CanonicalUser(user.id(), user.displayName());
            case dev.hangar.s3api.xml.Grantee.Group group -> new Grantee.Group(group.uri());
            case dev.hangar.s3api.xml.Grantee.AmazonCustomerByEmail ignored ->
                    throw new IllegalStateException("a stored bucket ACL never holds an e-mail grantee");
        };
        return new Grant(grantee, Permission.valueOf(grant.permission().name()));
    }

    /** A grant of a PutBucketAcl document. */
    private static Grant fromRequest(dev.hangar.s3api.xml.Grant grant) {
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
