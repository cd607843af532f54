package dev.hangar.s3api.semantics;

import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Precondition;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.S3Request;
import java.util.Optional;

/**
 * S3's conditional writes on PutObject and CompleteMultipartUpload: {@code If-None-Match: *} writes
 * only if the key has no current object, {@code If-Match: "etag"} only if its current object has
 * that ETag. The store checks them atomically with the write.
 */
final class WritePreconditions {
    private WritePreconditions() {}

    /**
     * The precondition a write's headers ask for.
     *
     * @throws S3Exception NotImplemented for an {@code If-None-Match} other than {@code *}, or for
     *     {@code If-Match} and {@code If-None-Match} together
     */
    static Precondition of(S3Request request) {
        String ifNoneMatch = request.header("if-none-match");
        String ifMatch = request.header("if-match");
        if (ifNoneMatch != null && ifMatch != null) {
            throw new S3Exception(S3Error.NOT_IMPLEMENTED,
                    "A write with both If-Match and If-None-Match is not implemented.");
        }
        if (ifNoneMatch != null) {
            if (!ifNoneMatch.strip().equals("*")) {
                throw new S3Exception(S3Error.NOT_IMPLEMENTED,
                        "A header you provided implies functionality that is not implemented: If-None-Match on a "
                                + "write accepts only *.");
            }
            return new Precondition.IfAbsent();
        }
        if (ifMatch != null) {
            String etag = ifMatch.strip();
            if (etag.isEmpty() || etag.equals("*") || etag.contains(",")) {
                throw new S3Exception(S3Error.NOT_IMPLEMENTED,
                        "A header you provided implies functionality that is not implemented: If-Match on a write "
                                + "takes exactly one ETag.");
            }
            return new Precondition.IfEtagMatches(etag);
        }
        return new Precondition.None();
    }

    /**
     * The error of a write whose precondition failed: 404 NoSuchKey for {@code If-Match} on a key
     * without a current object, as AWS answers, else 412 PreconditionFailed.
     */
    static S3Exception failure(Precondition precondition, Optional<ObjectVersion> current) {
        boolean absent = current.isEmpty() || current.get().isDeleteMarker();
        if (precondition instanceof Precondition.IfEtagMatches && absent) {
            return new S3Exception(S3Error.NO_SUCH_KEY);
        }
        String header = precondition instanceof Precondition.IfAbsent ? "If-None-Match" : "If-Match";
        return new S3Exception(S3Error.PRECONDITION_FAILED,
                "At least one of the pre-conditions you specified did not hold (" + header + ").");
    }
}
