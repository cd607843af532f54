package dev.hangar.s3api.auth;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Authenticates an S3 request by whichever mechanism it uses: Signature Version 4 ({@link SigV4Verifier}) or,
 * unless it is turned off, Version 2 ({@link SigV2Verifier}), each in its header and presigned-URL forms; a
 * request with neither is anonymous. A request may use one mechanism only.
 *
 * <p>With Version 2 turned off, a Version 2 request is refused as S3 refuses it in the regions that only
 * take Version 4: {@code 400 InvalidRequest}, "The authorization mechanism you have provided is not
 * supported. Please use AWS4-HMAC-SHA256."
 */
public final class RequestAuthenticator {
    private static final String V4_ALGORITHM_PARAMETER = "X-Amz-Algorithm";

    private final SigV4Verifier version4;
    private final SigV2Verifier version2;
    private final boolean version2Enabled;

    /**
     * @param region the region this endpoint answers for; a Version 4 credential scope naming another is
     *     rejected
     * @param clock the time against which request times and expiries are judged
     * @param secretKeys the secret key of an access key id, empty when there is no such key
     * @param version2Enabled whether Signature Version 2 requests are taken
     */
    public RequestAuthenticator(String region, Clock clock, Function<String, Optional<String>> secretKeys,
            boolean version2Enabled) {
        this.version4 = new SigV4Verifier(region, clock, secretKeys);
        this.version2 = new SigV2Verifier(clock, secretKeys);
        this.version2Enabled = version2Enabled;
    }

    /**
     * Authenticates a request.
     *
     * @param hostBucket the bucket the Host header names (virtual-host style), null for a path-style request:
     *     Version 2 signs the bucket's name as part of the path
     * @return who signed it, how, and how its body is protected; anonymous when it carries no signature
     * @throws S3Exception with the error AWS would answer when the request is malformed, expired, signed by an
     *     unknown key or signed wrongly
     */
    public Authentication authenticate(SignedRequest request, @Nullable String hostBucket) {
        Optional<String> authorization = request.firstHeader("authorization");
        boolean version2Header = authorization.filter(RequestAuthenticator::isVersion2Header).isPresent();
        List<QueryParameter> query = CanonicalRequest.parseQuery(request.rawQuery());
        boolean version2Query = has(query, SigV2Verifier.ACCESS_KEY_PARAMETER)
                || has(query, SigV2Verifier.SIGNATURE_PARAMETER);
        if (!version2Header && !version2Query) {
            return version4.verify(request);
        }
        if (!version2Enabled) {
            throw new S3Exception(S3Error.INVALID_REQUEST, AuthorizationHeader.UNSUPPORTED_MESSAGE);
        }
        if ((authorization.isPresent() && version2Query) || has(query, V4_ALGORITHM_PARAMETER)) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Only one auth mechanism allowed; only the "
                    + "X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization "
                    + "header should be specified");
        }
        return version2Header
                ? version2.verifyHeader(request, authorization.orElseThrow(), hostBucket)
                : version2.verifyPresigned(request, query, hostBucket);
    }

    /** Whether Signature Version 2 requests are taken. */
    public boolean version2Enabled() {
        return version2Enabled;
    }

    private static boolean isVersion2Header(String value) {
        String trimmed = value.strip();
        return trimmed.length() > SigV2Verifier.HEADER_PREFIX.length()
                && trimmed.substring(0, SigV2Verifier.HEADER_PREFIX.length()).toUpperCase(Locale.ROOT)
                        .equals(SigV2Verifier.HEADER_PREFIX);
    }

    private static boolean has(List<QueryParameter> query, String name) {
        return query.stream().anyMatch(parameter -> parameter.name().equals(name));
    }

    @Override
    public String toString() {
        return "RequestAuthenticator[" + version4 + ", signatureV2=" + version2Enabled + "]";
    }
}
