package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.access.CannedAcl;
import dev.hangar.s3api.access.Grant;
import dev.hangar.s3api.access.ObjectAcl;
import dev.hangar.s3api.request.S3Request;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Object ACLs as S3 takes and shows them: the canned ACL of an {@code x-amz-acl} header or the grants
 * of {@code x-amz-grant-*} headers on a write or on PutObjectAcl, a grant list in an {@code
 * AccessControlPolicy} body, and the grants GetObjectAcl answers. Hangar has one tenant, so one
 * canonical owner ({@link Documents#OWNER}) owns every bucket and object; canonical ids are as
 * {@link GrantLists} says.
 *
 * <p>Stored in the version's record (its {@code acl}): a canned ACL as its name (the form Hangar has
 * always stored), a grant list as the {@code AccessControlPolicy} document Hangar renders; the first
 * character tells them apart, as for a bucket's ({@link BucketAcls}). The field is replaced whole,
 * so on a leaderless cluster a grant list merges with other changes of the version as a canned ACL
 * does: the latest ACL wins, tags and locks changed meanwhile stay.
 */
final class ObjectAcls {
    private ObjectAcls() {}

    /**
     * The ACL an object write asks for (PutObject, CopyObject, CreateMultipartUpload), null when it
     * names none.
     *
     * @param knownId whether a canonical id names an access key other than the owner's
     * @throws S3Exception InvalidArgument for an unknown canned ACL, a malformed grant header or an
     *     unknown id, InvalidRequest for a canned ACL beside grant headers
     */
    static @Nullable ObjectAcl forWrite(Function<String, @Nullable String> headers, Predicate<String> knownId) {
        return GrantLists.fromHeaders(headers, knownId, ObjectAcls::canned, ObjectAcl::granted);
    }

    /** The stored form of an ACL: a canned ACL's name, or a grant list's document. */
    static String stored(ObjectAcl acl) {
        CannedAcl canned = acl.canned();
        return canned != null ? canned.headerValue()
                : new String(GrantLists.render(acl.grants()), StandardCharsets.UTF_8);
    }

    /** The ACL a stored form holds (see {@link #stored}); null is {@code private}. */
    static ObjectAcl read(@Nullable String stored) {
        if (stored == null) {
            return canned(CannedAcl.PRIVATE);
        }
        if (stored.startsWith("<")) {
            return ObjectAcl.granted(GrantLists.readStored(stored.getBytes(StandardCharsets.UTF_8)));
        }
        return canned(CannedAcl.fromHeaderValue(stored));
    }

    /** GetObjectAcl's document for an object with this stored ACL (null is private). */
    static byte[] render(@Nullable String stored) {
        return GrantLists.render(read(stored).grants());
    }

    /**
     * The ACL a PutObjectAcl request sets: its {@code x-amz-acl} header, its {@code x-amz-grant-*}
     * headers, or its body (already read to its end, empty when none was sent). A grant list with the
     * shape of a canned ACL is that canned ACL.
     *
     * @param knownId whether a canonical id names an access key other than the owner's
     * @throws S3Exception UnexpectedContent for headers beside a body, MissingSecurityHeader for neither
     *     header nor body, and what {@link #forWrite} and the document parser throw
     */
    static ObjectAcl requested(S3Request request, byte[] document, Predicate<String> knownId) {
        ObjectAcl fromHeaders = forWrite(request::header, knownId);
        if (fromHeaders != null) {
            if (document.length > 0) {
                throw new S3Exception(S3Error.UNEXPECTED_CONTENT);
            }
            return fromHeaders;
        }
        if (document.length == 0) {
            throw new S3Exception(S3Error.MISSING_SECURITY_HEADER,
                    "Your request was missing a required header: x-amz-acl, x-amz-grant-*, or an AccessControlPolicy body.");
        }
        List<Grant> grants = GrantLists.requested(document, knownId);
        return CannedAcl.matching(GrantLists.OWNER_GRANTEE, GrantLists.OWNER_GRANTEE, grants)
                .map(ObjectAcls::canned)
                .orElseGet(() -> ObjectAcl.granted(grants));
    }

    private static ObjectAcl canned(CannedAcl acl) {
        return ObjectAcl.canned(acl, GrantLists.OWNER_GRANTEE);
    }
}
