package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.access.CannedAcl;
import dev.hangar.s3api.access.Grant;
import dev.hangar.s3api.access.Grantee;
import dev.hangar.s3api.access.Permission;
import dev.hangar.s3api.xml.AccessControlPolicy;
import dev.hangar.s3api.xml.Owner;
import dev.hangar.s3api.xml.S3Xml;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Grant lists of buckets and objects as S3 takes and shows them, in an {@code AccessControlPolicy}
 * document, and as Hangar stores them: the document Hangar renders. A canonical user is an access
 * key: the owner's canonical id is {@link Documents#OWNER}'s ({@code hangar}, the root key's
 * account), every other key's is its access key id. A grant to an id that is neither is
 * InvalidArgument "Invalid id", as S3 answers an unknown canonical user.
 */
final class GrantLists {
    /** Hangar has one tenant, so one owner of every bucket and object. */
    static final Owner OWNER = Documents.OWNER;

    static final Grantee.CanonicalUser OWNER_GRANTEE = new Grantee.CanonicalUser(OWNER.id(), OWNER.displayName());

    private GrantLists() {}

    /**
     * The ACL a request's headers ask for: its {@code x-amz-acl} canned ACL, or the grants of its {@code
     * x-amz-grant-*} headers, ids checked; null when it has neither.
     *
     * @throws S3Exception InvalidArgument for an unknown canned ACL, a malformed grant header or an unknown id,
     *     InvalidRequest for a canned ACL beside grant headers, and what {@link GrantHeaders#parse} throws
     */
    static <T> @Nullable T fromHeaders(Function<String, @Nullable String> headers, Predicate<String> knownId,
            Function<CannedAcl, T> canned, Function<List<Grant>, T> granted) {
        String cannedName = GrantHeaders.cannedOrNone(headers);
        if (cannedName != null) {
            return canned.apply(CannedAcl.fromHeaderValue(cannedName));
        }
        return GrantHeaders.present(headers) ? granted.apply(checkedIds(GrantHeaders.parse(headers), knownId)) : null;
    }

    /** The document GetBucketAcl and GetObjectAcl answer, and the stored form of a grant list. */
    static byte[] render(List<Grant> grants) {
        List<dev.hangar.s3api.xml.Grant> documented = grants.stream().map(GrantLists::toDocument).toList();
        return S3Xml.renderAccessControlPolicy(new AccessControlPolicy(OWNER, documented));
    }

    /** The grants of a stored document ({@link #render}). */
    static List<Grant> readStored(byte[] stored) {
        AccessControlPolicy policy = S3Xml.parseAccessControlPolicy(new ByteArrayInputStream(stored));
        return policy.grants().stream().map(GrantLists::fromStored).toList();
    }

    /**
     * The grants of a request's {@code AccessControlPolicy} document, ids checked.
     *
     * @throws S3Exception MalformedACLError for a canonical user without an id,
     *     UnresolvableGrantByEmailAddress for an e-mail grantee, InvalidArgument for an unknown id, and
     *     what the document parser throws
     */
    static List<Grant> requested(byte[] document, Predicate<String> knownId) {
        AccessControlPolicy policy = S3Xml.parseAccessControlPolicy(new ByteArrayInputStream(document));
        return checkedIds(policy.grants().stream().map(GrantLists::fromRequest).toList(), knownId);
    }

    /**
     * The grants, with the owner's display name on its grants and none on others'.
     *
     * @throws S3Exception InvalidArgument "Invalid id" for an id that names no key
     */
    static List<Grant> checkedIds(List<Grant> grants, Predicate<String> knownId) {
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

    private static Grant fromStored(dev.hangar.s3api.xml.Grant grant) {
        Grantee grantee = switch (grant.grantee()) {
            case dev.hangar.s3api.xml.Grantee.CanonicalUser user -> new Grantee.CanonicalUser(user.id(), user.displayName());
            case dev.hangar.s3api.xml.Grantee.Group group -> new Grantee.Group(group.uri());
            case dev.hangar.s3api.xml.Grantee.AmazonCustomerByEmail ignored ->
                    throw new IllegalStateException("a stored ACL never holds an e-mail grantee");
        };
        return new Grant(grantee, Permission.valueOf(grant.permission().name()));
    }

    private static Grant fromRequest(dev.hangar.s3api.xml.Grant grant) {
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
