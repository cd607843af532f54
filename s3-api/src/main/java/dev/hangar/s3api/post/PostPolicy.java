package dev.hangar.s3api.post;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A POST policy: the UTF-8 JSON document, base64-encoded in the form's {@code policy} field, that says until
 * when a browser upload may be made and which form fields it may carry.
 *
 * <pre>{@code
 * { "expiration": "2015-12-30T12:00:00.000Z",
 *   "conditions": [ {"bucket": "sigv4examplebucket"},
 *                   ["starts-with", "$key", "user/user1/"],
 *                   ["content-length-range", 1, 1048576] ] }
 * }</pre>
 *
 * @param expiration the last instant at which the policy admits an upload
 * @param conditions the conditions in the order the policy lists them, which is the order they are checked in
 */
public record PostPolicy(Instant expiration, List<PostCondition> conditions) {

    public PostPolicy {
        Objects.requireNonNull(expiration, "expiration");
        conditions = List.copyOf(conditions);
    }

    /**
     * Reads the form's {@code policy} field. Parse it only once its signature has been verified
     * ({@link PostSignature#verify}): S3 checks the signature over the text as received, so a policy that was
     * tampered with is answered {@code SignatureDoesNotMatch}, never a parse error.
     *
     * <p>The document is strict JSON (no trailing commas, no duplicate members); {@code expiration} and
     * {@code conditions} are its only members, spelled in lower case; the expiration is an ISO 8601 UTC
     * timestamp ({@code 2015-12-30T12:00:00.000Z}, fraction optional); a condition is an object of exactly one
     * string member, or an array {@code ["eq" | "starts-with", "$field", "value"]} or
     * {@code ["content-length-range", min, max]}. Operation names are case-insensitive.
     *
     * @throws S3Exception {@link S3Error#INVALID_POLICY_DOCUMENT} with S3's {@code "Invalid Policy: ..."}
     *     message when the field is not base64, not JSON, or not a policy
     */
    public static PostPolicy parse(String base64Policy) {
        return PostPolicyReader.read(base64Policy);
    }

    /**
     * The largest file every {@code content-length-range} condition admits, so that an upload can be cut off as
     * soon as it grows past it; empty when the policy sets no upper bound.
     */
    public OptionalLong maximumContentLength() {
        return conditions.stream()
                .filter(PostCondition.ContentLengthRange.class::isInstance)
                .map(PostCondition.ContentLengthRange.class::cast)
                .mapToLong(PostCondition.ContentLengthRange::maximum)
                .min();
    }

    static S3Exception invalid(String detail) {
        return new S3Exception(S3Error.INVALID_POLICY_DOCUMENT, "Invalid Policy: " + detail);
    }
}
