package dev.hangar.s3api.auth;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import org.jspecify.annotations.Nullable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Verifies AWS Signature Version 4 on an S3 request: the {@code Authorization} header form and the presigned
 * query form. Pure logic over the request as received; thread-safe.
 *
 * <p>Signature Version 2 requests never come here: {@link RequestAuthenticator} sends every request with a
 * Version 2 header or query parameter to {@link SigV2Verifier}, or refuses it when Version 2 is off.
 *
 * <p>The body is not read here. The result tells {@link PayloadDecoder} how to verify it: the declared
 * SHA-256, or the key, timestamp, scope and seed signature that aws-chunked chunk signatures chain from.
 *
 * <p>Checks, in order: one mechanism only; the header or parameters parse; the credential scope names this
 * region, {@code s3} and {@code aws4_request}; the request time is valid and within 15 minutes of the clock
 * (header form) or inside its validity window (presigned form); {@code x-amz-content-sha256} is valid; the
 * signed headers include {@code host} and every {@code x-amz-*} header present; the access key exists; the
 * signature matches, compared in constant time.
 */
public final class SigV4Verifier {
    /** How far a header-signed request's time may be from the clock, either way (AWS's figure). */
    public static final Duration MAXIMUM_SKEW = Duration.ofMinutes(15);
    /** The longest validity of a presigned URL: seven days. */
    public static final long MAXIMUM_EXPIRES_SECONDS = 604_800;

    static final DateTimeFormatter TIMESTAMP_FORMAT = DateTimeFormatter
            .ofPattern("uuuuMMdd'T'HHmmss'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC)
            .withResolverStyle(ResolverStyle.STRICT);

    private static final String SERVICE = "s3";
    private static final String CONTENT_SHA256 = "x-amz-content-sha256";
    private static final String ALGORITHM_PARAMETER = "X-Amz-Algorithm";
    private static final String CREDENTIAL_PARAMETER = "X-Amz-Credential";
    private static final String DATE_PARAMETER = "X-Amz-Date";
    private static final String EXPIRES_PARAMETER = "X-Amz-Expires";
    private static final String SIGNED_HEADERS_PARAMETER = "X-Amz-SignedHeaders";
    private static final List<String> PRESIGNED_PARAMETERS = List.of(ALGORITHM_PARAMETER, CREDENTIAL_PARAMETER,
            CanonicalRequest.SIGNATURE_PARAMETER, DATE_PARAMETER, SIGNED_HEADERS_PARAMETER, EXPIRES_PARAMETER);

    private final String region;
    private final Clock clock;
    private final Function<String, Optional<String>> secretKeys;

    /**
     * @param region the region this endpoint answers for; a credential scope naming another is rejected
     * @param clock the time against which request times and expiries are judged
     * @param secretKeys the secret key of an access key id, empty when there is no such key
     */
    public SigV4Verifier(String region, Clock clock, Function<String, Optional<String>> secretKeys) {
        this.region = Objects.requireNonNull(region, "region");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.secretKeys = Objects.requireNonNull(secretKeys, "secretKeys");
    }

    /**
     * Authenticates a request.
     *
     * @return who signed it and how its body is protected; {@linkplain Authentication#isAnonymous() anonymous}
     *     when it carries neither an {@code Authorization} header nor an {@code X-Amz-Algorithm} parameter
     * @throws S3Exception with the error AWS would answer when the request is malformed, expired, signed by
     *     an unknown key or signed wrongly
     */
    public Authentication verify(SignedRequest request) {
        Optional<String> authorization = request.firstHeader("authorization");
        List<QueryParameter> query = CanonicalRequest.parseQuery(request.rawQuery());
        boolean presigned = query.stream().anyMatch(parameter -> parameter.name().equals(ALGORITHM_PARAMETER));
        if (authorization.isPresent() && presigned) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Only one auth mechanism allowed; only the "
                    + "X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization "
                    + "header should be specified");
        }
        if (authorization.isPresent()) {
            return verifyHeader(request, authorization.get(), query);
        }
        if (presigned) {
            return verifyPresigned(request, query);
        }
        return anonymous(request);
    }

    private Authentication verifyHeader(SignedRequest request, String authorization, List<QueryParameter> query) {
        AuthorizationHeader header = AuthorizationHeader.parse(authorization);
        CredentialScope scope = CredentialScope.parse(header.credential()).orElseThrow(() ->
                AuthorizationHeader.malformed("the Credential is mal-formed; expecting "
                        + "\"<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request\"."));
        checkScope(scope, AuthorizationHeader::malformed);
        Instant time = headerTime(request);
        String timestamp = TIMESTAMP_FORMAT.format(time);
        checkScopeDate(scope, timestamp, AuthorizationHeader::malformed);
        Instant now = clock.instant();
        if (Duration.between(time, now).abs().compareTo(MAXIMUM_SKEW) > 0) {
            throw new S3Exception(S3Error.REQUEST_TIME_TOO_SKEWED,
                    "The difference between the request time and the current time is too large.");
        }
        String contentSha256 = request.firstHeader(CONTENT_SHA256).orElseThrow(() -> new S3Exception(
                S3Error.INVALID_REQUEST, "Missing required header for this request: x-amz-content-sha256"));
        PayloadMode payloadMode = payloadMode(contentSha256);
        checkSignedHeaders(header.signedHeaders(), request, () -> AuthorizationHeader.malformed(
                "the SignedHeaders must include host."));
        return checkSignature(request, scope, timestamp, CanonicalRequest.canonicalQuery(query, false),
                header.signedHeaders(), contentSha256, payloadMode, header.signature(), SignatureScheme.V4_HEADER);
    }

    private Authentication verifyPresigned(SignedRequest request, List<QueryParameter> query) {
        for (String name : PRESIGNED_PARAMETERS) {
            long count = query.stream().filter(parameter -> parameter.name().equals(name)).count();
            if (count == 0) {
                throw queryError("Query-string authentication version 4 requires the X-Amz-Algorithm, "
                        + "X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires "
                        + "parameters.");
            }
            if (count > 1) {
                throw queryError(name + " must be given once.");
            }
        }
        if (!parameter(query, ALGORITHM_PARAMETER).equals(Signatures.ALGORITHM)) {
            throw queryError("X-Amz-Algorithm only supports \"AWS4-HMAC-SHA256\"");
        }
        Function<String, S3Exception> credentialError =
                detail -> queryError("Error parsing the X-Amz-Credential parameter; " + detail);
        CredentialScope scope = CredentialScope.parse(parameter(query, CREDENTIAL_PARAMETER)).orElseThrow(() ->
                credentialError.apply("the Credential is mal-formed; expecting "
                        + "\"<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request\"."));
        checkScope(scope, credentialError);
        String timestamp = parameter(query, DATE_PARAMETER);
        Instant time = parseTimestamp(timestamp).orElseThrow(() -> queryError(
                "X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\""));
        checkScopeDate(scope, timestamp, credentialError);
        long expires = expiresSeconds(parameter(query, EXPIRES_PARAMETER));
        Instant now = clock.instant();
        if (time.isAfter(now.plus(MAXIMUM_SKEW))) {
            throw new S3Exception(S3Error.ACCESS_DENIED, "Request is not valid yet");
        }
        if (now.isAfter(time.plusSeconds(expires))) {
            throw new S3Exception(S3Error.ACCESS_DENIED, "Request has expired");
        }
        List<String> signedHeaders = Arrays.asList(parameter(query, SIGNED_HEADERS_PARAMETER).split(";", -1));
        if (signedHeaders.stream().anyMatch(String::isEmpty)) {
            throw queryError("X-Amz-SignedHeaders is malformed.");
        }
        checkSignedHeaders(signedHeaders, request, () -> queryError("X-Amz-SignedHeaders must include host."));
        // A presigned URL signs no body, unless its signer chose to sign x-amz-content-sha256.
        Optional<String> contentSha256 = signedHeaders.contains(CONTENT_SHA256)
                ? request.firstHeader(CONTENT_SHA256)
                : Optional.empty();
        String payloadHash = contentSha256.orElse("UNSIGNED-PAYLOAD");
        return checkSignature(request, scope, timestamp, CanonicalRequest.canonicalQuery(query, true),
                List.copyOf(signedHeaders), payloadHash, payloadMode(payloadHash),
                parameter(query, CanonicalRequest.SIGNATURE_PARAMETER), SignatureScheme.V4_QUERY);
    }

    private Authentication checkSignature(SignedRequest request, CredentialScope scope, String timestamp,
            String canonicalQuery, List<String> signedHeaders, String payloadHash, PayloadMode payloadMode,
            String sentSignature, SignatureScheme scheme) {
        String secretKey = secretKeys.apply(scope.accessKeyId()).orElseThrow(() -> new S3Exception(
                S3Error.INVALID_ACCESS_KEY_ID, "The AWS access key ID you provided does not exist in our records."));
        byte[] signingKey = Signatures.signingKey(secretKey, scope.date(), scope.region(), scope.service());
        String canonicalRequest = CanonicalRequest.build(request, canonicalQuery, signedHeaders, payloadHash);
        String stringToSign = CanonicalRequest.stringToSign(timestamp, scope.scope(), canonicalRequest);
        String signature = Signatures.sign(signingKey, stringToSign);
        if (!Signatures.matches(signature, sentSignature)) {
            throw new S3Exception(S3Error.SIGNATURE_DOES_NOT_MATCH);
        }
        return new Authentication(scope.accessKeyId(), scheme, signingKey, timestamp, scope.scope(), signature,
                payloadMode, payloadMode == PayloadMode.SIGNED_SHA256 ? payloadHash.toLowerCase(Locale.ROOT) : null);
    }

    private static Authentication anonymous(SignedRequest request) {
        Optional<String> contentSha256 = request.firstHeader(CONTENT_SHA256);
        if (contentSha256.isEmpty()) {
            return Authentication.anonymous(PayloadMode.UNSIGNED_PAYLOAD, null);
        }
        PayloadMode payloadMode = payloadMode(contentSha256.get());
        if (payloadMode.hasChunkSignatures()) {
            throw new S3Exception(S3Error.ACCESS_DENIED,
                    "x-amz-content-sha256 " + contentSha256.get() + " requires a signed request");
        }
        return Authentication.anonymous(payloadMode, payloadMode == PayloadMode.SIGNED_SHA256
                ? contentSha256.get().toLowerCase(Locale.ROOT)
                : null);
    }

    /** Reads the declared payload protection; AWS accepts the hex hash in either letter case. */
    static PayloadMode payloadMode(String contentSha256) {
        for (PayloadMode mode : PayloadMode.values()) {
            if (mode.headerValue().filter(contentSha256::equals).isPresent()) {
                return mode;
            }
        }
        if (Authentication.isSha256Hex(contentSha256)) {
            return PayloadMode.SIGNED_SHA256;
        }
        throw new S3Exception(S3Error.INVALID_ARGUMENT, "x-amz-content-sha256 must be UNSIGNED-PAYLOAD, "
                + "STREAMING-UNSIGNED-PAYLOAD-TRAILER, STREAMING-AWS4-HMAC-SHA256-PAYLOAD, "
                + "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER, or a valid sha256 value.");
    }

    private void checkScope(CredentialScope scope, Function<String, S3Exception> malformed) {
        if (!scope.region().equals(region)) {
            throw malformed.apply("the region '" + scope.region() + "' is wrong; expecting '" + region + "'");
        }
        if (!scope.service().equals(SERVICE)) {
            throw malformed.apply("incorrect service \"" + scope.service() + "\". This endpoint belongs to \""
                    + SERVICE + "\".");
        }
        if (!scope.terminator().equals(Signatures.TERMINATOR)) {
            throw malformed.apply("incorrect terminal \"" + scope.terminator() + "\". This endpoint uses \""
                    + Signatures.TERMINATOR + "\".");
        }
    }

    private static void checkScopeDate(CredentialScope scope, String timestamp,
            Function<String, S3Exception> malformed) {
        if (!timestamp.startsWith(scope.date())) {
            throw malformed.apply("Invalid credential date \"" + scope.date()
                    + "\". This date is not the same as X-Amz-Date: \"" + timestamp.substring(0, 8) + "\".");
        }
    }

    /**
     * Requires {@code host} to be signed (otherwise a signature could be replayed against another endpoint)
     * and every {@code x-amz-*} header present to be signed, as AWS does: those headers change what the
     * request does (metadata, ACLs, copy sources, checksums), so an unsigned one could have been altered.
     */
    private static void checkSignedHeaders(List<String> signedHeaders, SignedRequest request,
            Supplier<S3Exception> hostMissing) {
        Set<String> signed = new HashSet<>();
        signedHeaders.forEach(name -> signed.add(name.toLowerCase(Locale.ROOT)));
        if (!signed.contains("host")) {
            throw hostMissing.get();
        }
        List<String> unsigned = new ArrayList<>();
        for (String name : request.headers().keySet()) {
            if (name.startsWith("x-amz-") && !signed.contains(name)) {
                unsigned.add(name);
            }
        }
        if (!unsigned.isEmpty()) {
            throw new S3Exception(S3Error.ACCESS_DENIED,
                    "There were headers present in the request which were not signed: " + String.join(", ", unsigned));
        }
    }

    private static Instant headerTime(SignedRequest request) {
        Optional<String> amazonDate = request.firstHeader("x-amz-date");
        Optional<Instant> time = amazonDate.isPresent()
                ? parseTimestamp(amazonDate.get())
                : request.firstHeader("date").flatMap(SigV4Verifier::parseHttpDate);
        return time.orElseThrow(() -> new S3Exception(S3Error.ACCESS_DENIED,
                "AWS authentication requires a valid Date or x-amz-date header"));
    }

    static Optional<Instant> parseTimestamp(String value) {
        String stripped = value.strip();
        Instant fast = parseBasicTimestamp(stripped);
        if (fast != null) {
            return Optional.of(fast);
        }
        try {
            return Optional.of(Instant.from(TIMESTAMP_FORMAT.parse(value.strip())));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /**
     * {@code yyyyMMdd'T'HHmmss'Z'} read digit by digit: the formatter costs more than the rest of
     * the timestamp checks of a request. Null when the value is not exactly that shape, which the
     * formatter then judges (and refuses).
     */
    private static @Nullable Instant parseBasicTimestamp(String value) {
        if (value.length() != 16 || value.charAt(8) != 'T' || value.charAt(15) != 'Z') {
            return null;
        }
        for (int i = 0; i < 15; i++) {
            if (i != 8 && (value.charAt(i) < '0' || value.charAt(i) > '9')) {
                return null;
            }
        }
        try {
            return java.time.LocalDateTime.of(
                            digits(value, 0, 4), digits(value, 4, 6), digits(value, 6, 8),
                            digits(value, 9, 11), digits(value, 11, 13), digits(value, 13, 15))
                    .toInstant(ZoneOffset.UTC);
        } catch (java.time.DateTimeException invalid) {
            return null;
        }
    }

    private static int digits(String value, int from, int to) {
        int result = 0;
        for (int i = from; i < to; i++) {
            result = result * 10 + (value.charAt(i) - '0');
        }
        return result;
    }

    private static Optional<Instant> parseHttpDate(String value) {
        try {
            return Optional.of(ZonedDateTime.parse(value.strip(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static long expiresSeconds(String value) {
        long seconds;
        try {
            seconds = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw queryError("X-Amz-Expires should be a number");
        }
        if (seconds < 0) {
            throw expiresOutOfRange("X-Amz-Expires must be non-negative");
        }
        if (seconds == 0) {
            throw expiresOutOfRange("X-Amz-Expires must be at least 1 second");
        }
        if (seconds > MAXIMUM_EXPIRES_SECONDS) {
            throw expiresOutOfRange("X-Amz-Expires must be less than a week (in seconds) that is 604800");
        }
        return seconds;
    }

    private static String parameter(List<QueryParameter> query, String name) {
        for (QueryParameter parameter : query) {
            if (parameter.name().equals(name)) {
                return parameter.value();
            }
        }
        throw new IllegalStateException(name + " was checked to be present");
    }

    private static S3Exception queryError(String message) {
        return new S3Exception(S3Error.AUTHORIZATION_QUERY_PARAMETERS_ERROR, message);
    }

    /** An X-Amz-Expires that is a number but out of range: S3 refuses the URL with 403, not 400. */
    private static S3Exception expiresOutOfRange(String message) {
        return new S3Exception(S3Error.AUTHORIZATION_QUERY_PARAMETERS_EXPIRES, message);
    }

    @Override
    public String toString() {
        return "SigV4Verifier[region=" + region + "]";
    }

}
