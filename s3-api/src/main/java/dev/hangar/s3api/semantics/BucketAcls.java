package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.access.BucketAcl;
import dev.hangar.s3api.access.CannedAcl;
import dev.hangar.s3api.access.Grant;
import dev.hangar.s3api.request.S3Request;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A bucket's ACL as S3 shows it and takes it: the grants of its canned ACL or its grant list in an
 * {@code AccessControlPolicy}, and the ACL that a PutBucketAcl or CreateBucket request (an {@code
 * x-amz-acl} header, {@code x-amz-grant-*} headers, or a grant list) asks for. Canonical ids are as
 * {@link GrantLists} says.
 *
 * <p>Stored as the bucket configuration of kind {@code acl}: a canned ACL as its name (the form
 * Hangar has always stored), a grant list as the {@code AccessControlPolicy} document Hangar
 * renders. The first byte tells them apart: no canned name starts with {@code <}.
 */
final class BucketAcls {
    /** A bucket's ACL when none was set. */
    static final BucketAcl PRIVATE = BucketAcl.canned(CannedAcl.PRIVATE, GrantLists.OWNER_GRANTEE);

    private BucketAcls() {}

    /** The owner's canonical id. */
    static String ownerId() {
        return GrantLists.OWNER.id();
    }

    /** The ACL the canned ACL {@code acl} is on a bucket. */
    static BucketAcl canned(CannedAcl acl) {
        return BucketAcl.canned(acl, GrantLists.OWNER_GRANTEE);
    }

    /** GetBucketAcl's document for a bucket with this ACL. */
    static byte[] render(BucketAcl acl) {
        return GrantLists.render(acl.grants());
    }

    /** The stored form of an ACL: a canned ACL's name, or a grant list's document. */
    static byte[] stored(BucketAcl acl) {
        CannedAcl canned = acl.canned();
        return canned != null ? canned.headerValue().getBytes(StandardCharsets.UTF_8) : render(acl);
    }

    /** The ACL a stored form holds (see {@link #stored}). */
    static BucketAcl read(byte[] stored) {
        if (stored.length > 0 && stored[0] == '<') {
            return BucketAcl.granted(GrantLists.readStored(stored));
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
        BucketAcl fromHeaders = forCreate(request::header, knownId);
        if (fromHeaders != null) {
            if (document.length > 0) {
                throw new S3Exception(S3Error.UNEXPECTED_CONTENT);
            }
            return fromHeaders;
        }
        if (document.length == 0) {
            throw new S3Exception(S3Error.MISSING_REQUEST_BODY_ERROR);
        }
        List<Grant> grants = GrantLists.requested(document, knownId);
        return CannedAcl.matching(GrantLists.OWNER_GRANTEE, grants).map(BucketAcls::canned)
                .orElseGet(() -> BucketAcl.granted(grants));
    }

    /**
     * The ACL a CreateBucket request sets, null when it sets none: its {@code x-amz-acl} or its
     * {@code x-amz-grant-*} headers.
     *
     * @throws S3Exception as {@link #requested} for the headers
     */
    static @Nullable BucketAcl forCreate(Function<String, @Nullable String> headers, Predicate<String> knownId) {
        return GrantLists.fromHeaders(headers, knownId, BucketAcls::canned, BucketAcl::granted);
    }
}
